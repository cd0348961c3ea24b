package io.flinkivm.sql.rows;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.flinkivm.core.query.Tuple;
import io.flinkivm.core.semiring.IntegerRing;
import io.flinkivm.flink.types.ResultRecord;
import io.flinkivm.flink.types.TupleTypeInfo;
import io.flinkivm.sql.translate.SqlSchemas;
import io.flinkivm.sql.translate.SqlTranslation;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.runtime.checkpoint.OperatorSubtaskState;
import org.apache.flink.streaming.api.operators.KeyedProcessOperator;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.util.KeyedOneInputStreamOperatorTestHarness;
import org.apache.flink.types.Row;
import org.junit.jupiter.api.Test;

/**
 * The keyed fold of a view's changelog into group rows: updates of two tuples of one group interleaved
 * (as two sink subtasks send them), an update's {@code -U} held across a snapshot and a restore, and a
 * delete that takes a value away.
 */
class DistinctFoldTest {
    private static final SqlTranslation SQL = SqlTranslation.of(
            "SELECT dt, COUNT(DISTINCT bidder) AS bidders, COUNT(*) AS n FROM bid GROUP BY dt",
            SqlSchemas.parse("bid(bidder BIGINT NOT NULL, dt STRING)"));

    private static KeyedOneInputStreamOperatorTestHarness<Tuple, ResultRecord<Long>, Row> harness(
            OperatorSubtaskState restore, boolean updateBefore) throws Exception {
        return harness(restore, updateBefore, 0);
    }

    private static KeyedOneInputStreamOperatorTestHarness<Tuple, ResultRecord<Long>, Row> harness(
            OperatorSubtaskState restore, boolean updateBefore, long ttl) throws Exception {
        KeyedOneInputStreamOperatorTestHarness<Tuple, ResultRecord<Long>, Row> h =
                new KeyedOneInputStreamOperatorTestHarness<>(
                        new KeyedProcessOperator<>(new DistinctFold<>(SQL, IntegerRing.INSTANCE, updateBefore, ttl)),
                        DistinctFold.groupKey(SQL),
                        TupleTypeInfo.INSTANCE);
        if (restore != null) {
            h.initializeState(restore);
        }
        h.open();
        return h;
    }

    private static void send(
            KeyedOneInputStreamOperatorTestHarness<Tuple, ResultRecord<Long>, Row> h,
            ResultRecord.Kind kind,
            String dt,
            long bidder,
            long count)
            throws Exception {
        h.processElement(new StreamRecord<>(ResultRecord.change(1, 1, kind, Tuple.of(dt, bidder), count, true)));
    }

    private static List<String> rows(KeyedOneInputStreamOperatorTestHarness<Tuple, ResultRecord<Long>, Row> h) {
        List<String> out = new ArrayList<>();
        for (Row r : h.extractOutputValues()) {
            out.add(r.toString());
        }
        h.getOutput().clear();
        return out;
    }

    @Test
    void interleavedUpdatesChangeTheGroupOncePerUpdate() throws Exception {
        var h = harness(null, false);
        send(h, ResultRecord.Kind.INSERT, "d1", 10, 1);
        send(h, ResultRecord.Kind.INSERT, "d1", 11, 1);
        assertThat(rows(h)).containsExactly("+I[d1, 1, 1]", "+U[d1, 2, 2]");
        send(h, ResultRecord.Kind.UPDATE_BEFORE, "d1", 10, 1);
        send(h, ResultRecord.Kind.UPDATE_BEFORE, "d1", 11, 1);
        send(h, ResultRecord.Kind.UPDATE_AFTER, "d1", 11, 2);
        assertThat(rows(h)).containsExactly("+U[d1, 2, 3]");
        OperatorSubtaskState snapshot = h.snapshot(1, 1);
        h.close();

        var restored = harness(snapshot, true);
        send(restored, ResultRecord.Kind.UPDATE_AFTER, "d1", 10, 3);
        send(restored, ResultRecord.Kind.INSERT, "d2", 10, 1);
        assertThat(rows(restored)).containsExactly("-U[d1, 2, 3]", "+U[d1, 2, 5]", "+I[d2, 1, 1]");
        send(restored, ResultRecord.Kind.DELETE, "d1", 11, 2);
        send(restored, ResultRecord.Kind.DELETE, "d2", 10, 1);
        assertThat(rows(restored)).containsExactly("-U[d1, 2, 5]", "+U[d1, 1, 3]", "-D[d2, 1, 1]");
        restored.close();
    }

    @Test
    void anUpdateWithoutItsOldPayloadIsAnInternalError() throws Exception {
        var h = harness(null, false);
        assertThatThrownBy(() -> send(h, ResultRecord.Kind.UPDATE_AFTER, "d1", 10, 2))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("+U of (d1, 10) without its -U");
        h.close();
    }

    /**
     * Under a TTL of 100 ms, group d1, last changed at 0, is dropped at 150 without a row; d2, changed
     * at 90, stays until 240. A later update of d1 (its -U, then its +U) starts d1 again from the new
     * payload alone, and a delete of d1 after that takes it away again.
     */
    @Test
    void anIdleGroupIsDroppedWholeAndStartsAgain() throws Exception {
        var h = harness(null, false, 100);
        h.setProcessingTime(0);
        send(h, ResultRecord.Kind.INSERT, "d1", 10, 1);
        send(h, ResultRecord.Kind.INSERT, "d1", 11, 1);
        h.setProcessingTime(90);
        send(h, ResultRecord.Kind.INSERT, "d2", 10, 1);
        assertThat(rows(h)).containsExactly("+I[d1, 1, 1]", "+U[d1, 2, 2]", "+I[d2, 1, 1]");
        // Per group: its payload, its counts and its timer's time.
        assertThat(h.numKeyedStateEntries()).isEqualTo(6);
        h.setProcessingTime(150);
        assertThat(rows(h)).isEmpty();
        assertThat(h.numKeyedStateEntries()).isEqualTo(3);
        send(h, ResultRecord.Kind.UPDATE_BEFORE, "d1", 10, 1);
        send(h, ResultRecord.Kind.UPDATE_AFTER, "d1", 10, 4);
        send(h, ResultRecord.Kind.INSERT, "d2", 12, 1);
        assertThat(rows(h)).containsExactly("+I[d1, 1, 4]", "+U[d2, 2, 2]");
        send(h, ResultRecord.Kind.DELETE, "d1", 10, 4);
        assertThat(rows(h)).containsExactly("-D[d1, 1, 4]");
        h.setProcessingTime(1000);
        assertThat(h.numKeyedStateEntries()).isZero();
        assertThat(h.numProcessingTimeTimers()).isZero();
        h.close();
    }
}
