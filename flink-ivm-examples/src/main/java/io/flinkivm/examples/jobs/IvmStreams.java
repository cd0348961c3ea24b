package io.flinkivm.examples.jobs;

import io.flinkivm.flink.IvmJob;
import io.flinkivm.flink.types.DeadLetter;
import io.flinkivm.flink.types.ResultRecord;
import org.apache.flink.api.common.functions.FilterFunction;
import org.apache.flink.api.common.functions.MapFunction;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.java.tuple.Tuple2;
import org.apache.flink.api.java.typeutils.EitherTypeInfo;
import org.apache.flink.api.java.typeutils.TupleTypeInfo;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.types.Either;

/**
 * Helpers for collecting a flink-ivm job's output in one client: results and dead letters merged into
 * one stream of {@code Either} (left: a result, right: a dead letter), so that a single
 * {@code executeAndCollect} sees both in whatever order they arrive; and filters and time stamps that
 * keep what travels to the client small and measurable.
 */
public final class IvmStreams {
    private IvmStreams() {}

    /** The job's results and dead letters as one stream. */
    public static <T> DataStream<Either<ResultRecord<T>, DeadLetter>> merged(IvmJob<T> job) {
        return merged(job.results(), job.deadLetters());
    }

    /** {@code left} and {@code deadLetters} as one stream. */
    public static <L> DataStream<Either<L, DeadLetter>> merged(DataStream<L> left, DataStream<DeadLetter> deadLetters) {
        TypeInformation<Either<L, DeadLetter>> type = new EitherTypeInfo<>(left.getType(), deadLetters.getType());
        // Types given up front: Flink's type extraction would otherwise try (and log) a generic type first.
        DataStream<Either<L, DeadLetter>> l =
                left.map(new AsLeft<L>(), type).name("results").setParallelism(left.getParallelism());
        DataStream<Either<L, DeadLetter>> r = deadLetters
                .map(new AsRight<L>(), type)
                .name("dead letters")
                .setParallelism(deadLetters.getParallelism());
        return l.union(r);
    }

    /**
     * Keeps the end markers of every snapshot but the rows of snapshot {@code id} only: progress
     * without shipping every intermediate result to the client. Runs chained to the sink.
     */
    public static <T> DataStream<ResultRecord<T>> rowsOfSnapshot(DataStream<ResultRecord<T>> results, long id) {
        return results.filter(new RowsOf<T>(id))
                .name("rows of snapshot " + id + ", end markers of all")
                .setParallelism(results.getParallelism());
    }

    /**
     * Each result with the wall-clock time (epoch milliseconds) at which the sink emitted it: chained to
     * the sink, so the times of two end markers tell how long the inserts between the snapshots took.
     */
    public static <T> DataStream<Tuple2<Long, ResultRecord<T>>> stamped(DataStream<ResultRecord<T>> results) {
        return results.map(
                        new Stamp<T>(), new TupleTypeInfo<Tuple2<Long, ResultRecord<T>>>(Types.LONG, results.getType()))
                .name("emission time")
                .setParallelism(results.getParallelism());
    }

    private static final class AsLeft<L> implements MapFunction<L, Either<L, DeadLetter>> {
        private static final long serialVersionUID = 1L;

        @Override
        public Either<L, DeadLetter> map(L value) {
            return Either.Left(value);
        }
    }

    private static final class AsRight<L> implements MapFunction<DeadLetter, Either<L, DeadLetter>> {
        private static final long serialVersionUID = 1L;

        @Override
        public Either<L, DeadLetter> map(DeadLetter d) {
            return Either.Right(d);
        }
    }

    private static final class RowsOf<T> implements FilterFunction<ResultRecord<T>> {
        private static final long serialVersionUID = 1L;
        private final long id;

        RowsOf(long id) {
            this.id = id;
        }

        @Override
        public boolean filter(ResultRecord<T> r) {
            return r.isEnd() || r.snapshotId() == id;
        }
    }

    private static final class Stamp<T> implements MapFunction<ResultRecord<T>, Tuple2<Long, ResultRecord<T>>> {
        private static final long serialVersionUID = 1L;

        @Override
        public Tuple2<Long, ResultRecord<T>> map(ResultRecord<T> r) {
            return Tuple2.of(System.currentTimeMillis(), r);
        }
    }
}
