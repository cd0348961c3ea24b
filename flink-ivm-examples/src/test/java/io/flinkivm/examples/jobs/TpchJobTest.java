package io.flinkivm.examples.jobs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.withinPercentage;

import io.flinkivm.core.query.ResultTuple;
import io.flinkivm.core.query.Tuple;
import io.flinkivm.examples.tpch.TpchRevenue;
import io.flinkivm.examples.tpch.TpchStream;
import io.flinkivm.flink.types.InputRecord;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@link TpchJob}, the registry's adapter of {@link TpchRevenue}. */
class TpchJobTest {
    private final TpchJob job = new TpchJob();

    @Test
    void isRegisteredAsTpch() {
        assertThat(ExampleJobs.byName("tpch")).isInstanceOf(TpchJob.class);
    }

    @Test
    void insertsPickTheScaleFactor() {
        assertThat(TpchJob.scaleFactorFor(job.defaultInserts())).isEqualTo(0.01);
        assertThat(TpchJob.scaleFactorFor(7_667_500)).isEqualTo(1.0);
        assertThat(TpchJob.scaleFactorFor(1)).isEqualTo(TpchJob.MIN_SCALE_FACTOR);
    }

    @Test
    void generatorReplaysTheStreamOfTheScaleFactorAfterSerialization() throws Exception {
        InsertGenerator<Long> generator = job.generator(new GeneratorSettings(7_667, 0, 11));
        List<InputRecord<Long>> expected = TpchStream.inserts(TpchJob.scaleFactorFor(7_667), 11);
        assertThat(generator.count()).isEqualTo(expected.size()).isCloseTo(7_667L, withinPercentage(2));

        InsertGenerator<?> shipped = roundTrip(generator);
        List<InputRecord<?>> replayed = new ArrayList<>();
        for (long i = 0; i < shipped.count(); i++) {
            replayed.add(shipped.record(i));
        }
        assertThat(replayed).isEqualTo(expected);
    }

    @Test
    void resultsShowHighestRevenueFirstWithFourDecimals() {
        List<ResultTuple<Long>> rows = new ArrayList<>(List.of(
                new ResultTuple<>(Tuple.of(1L, 2L), 5L),
                new ResultTuple<>(Tuple.of(3L, 4L), 90_000L),
                new ResultTuple<>(Tuple.of(2L, 2L), 5L)));
        rows.sort(job.resultOrder());

        assertThat(rows)
                .extracting(ResultTuple::tuple)
                .containsExactly(Tuple.of(3L, 4L), Tuple.of(1L, 2L), Tuple.of(2L, 2L));
        assertThat(job.formatPayload(90_000L)).isEqualTo("9.0000");
        assertThat(job.query()).isEqualTo(TpchRevenue.QUERY);
    }

    private static InsertGenerator<?> roundTrip(InsertGenerator<Long> g) throws Exception {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            out.writeObject(g);
        }
        assertThat(bytes.size()).as("serialized generator bytes").isLessThan(1_000);
        try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(bytes.toByteArray()))) {
            return (InsertGenerator<?>) in.readObject();
        }
    }
}
