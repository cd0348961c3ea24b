package io.flinkivm.examples.jobs;

import io.flinkivm.flink.types.InputRecord;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.connector.datagen.source.GeneratorFunction;

/**
 * An example's stream of inserts, by index: {@link #record(long)} for every index in [0, {@link #count()})
 * is deterministic, so the Flink source (a {@code DataGeneratorSource} over the indices) and a test that
 * replays the stream into the in-memory engine see the same inserts.
 */
public abstract class InsertGenerator<T> implements GeneratorFunction<Long, InputRecord<T>> {
    private static final long serialVersionUID = 1L;

    /** Number of inserts. */
    public abstract long count();

    /** Insert {@code index} (from 0). */
    public abstract InputRecord<T> record(long index);

    @Override
    public final InputRecord<T> map(Long index) {
        return record(index);
    }

    /** A generator over a fixed list (it travels with the job, so keep it small). */
    public static <T> InsertGenerator<T> of(List<InputRecord<T>> records) {
        return new Fixed<>(new ArrayList<>(records));
    }

    private static final class Fixed<T> extends InsertGenerator<T> {
        private static final long serialVersionUID = 1L;
        private final ArrayList<InputRecord<T>> records;

        Fixed(ArrayList<InputRecord<T>> records) {
            this.records = records;
        }

        @Override
        public long count() {
            return records.size();
        }

        @Override
        public InputRecord<T> record(long index) {
            return records.get(Math.toIntExact(index));
        }
    }
}
