package io.flinkivm.flink.ingest;

import static io.flinkivm.flink.common.Harnesses.element;
import static org.assertj.core.api.Assertions.assertThat;

import io.flinkivm.core.plan.Inputs;
import io.flinkivm.core.plan.MaintenancePlan;
import io.flinkivm.core.plan.Planner;
import io.flinkivm.core.query.ChangeKind;
import io.flinkivm.core.query.QueryParser;
import io.flinkivm.core.query.Tuple;
import io.flinkivm.core.semiring.IntegerRing;
import io.flinkivm.flink.common.Harnesses;
import io.flinkivm.flink.common.Harnesses.Backend;
import io.flinkivm.flink.common.Harnesses.Outputs;
import io.flinkivm.flink.common.Harnesses.Step;
import io.flinkivm.flink.common.StateTtl;
import io.flinkivm.flink.types.DeadLetter;
import io.flinkivm.flink.types.DeadLetterTypeInfo;
import io.flinkivm.flink.types.InputRecord;
import io.flinkivm.flink.types.PayloadTypes;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.util.OutputTag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The row check in a harness, keyed by row, over the integers with R read as a changelog and S
 * insert-only: what passes goes on as inserts (a delete as the inverse), what takes more than its row
 * holds is a dead letter with the reason, and the rows survive a snapshot and a restore.
 */
class LiveRowsOperatorTest {
    static final IntegerRing Z = IntegerRing.INSTANCE;
    static final MaintenancePlan PLAN =
            Planner.plan(QueryParser.parse("Q(A) :- R(A,B), S(A)"), Z, Planner.Strategy.AUTO, Inputs.changelog("R"));
    static final OutputTag<DeadLetter> DEAD = new OutputTag<>("dead", DeadLetterTypeInfo.INSTANCE);

    private static Step<InputRecord<Long>> change(ChangeKind kind, String relation, long payload, Object... values) {
        return element(InputRecord.change(kind, relation, Tuple.of(values), payload, "line " + payload));
    }

    /** On the heap backend in both layouts (the operator's own maps, and managed state), and on RocksDB. */
    @ParameterizedTest
    @CsvSource({"HEAP, false", "HEAP, true", "ROCKSDB, false"})
    void deletesAreCheckedAgainstTheRowsAcrossARestore(Backend backend, boolean managed) throws Exception {
        List<Step<InputRecord<Long>>> before = List.of(
                change(ChangeKind.INSERT, "R", 3, 1L, 2L),
                change(ChangeKind.DELETE, "R", 1, 1L, 2L), // R(1,2) holds 2
                change(ChangeKind.DELETE, "R", 4, 1L, 9L), // absent
                change(ChangeKind.DELETE, "S", 7, 1L), // S is insert-only
                element(InputRecord.snapshotRequest()));
        List<Step<InputRecord<Long>>> after = List.of(
                change(ChangeKind.UPDATE_BEFORE, "R", 5, 1L, 2L), // more than R(1,2) holds
                change(ChangeKind.UPDATE_BEFORE, "R", 2, 1L, 2L), // all of it: R(1,2) leaves
                change(ChangeKind.UPDATE_AFTER, "R", 6, 1L, 3L),
                change(ChangeKind.DELETE, "R", 8, 1L, 2L)); // gone
        Outputs[] runs = Harnesses.straightAndRestored(
                restored -> Harnesses.keyed(
                        () -> new LiveRowsOperator<>(
                                PLAN, Z, PayloadTypes.of(Z), DEAD, managed, StateTtl.NONE, java.util.Set.of()),
                        LiveRowsOperator::key,
                        backend,
                        restored),
                Harnesses::play,
                DEAD,
                before,
                after);
        assertThat(runs[1].normalized()).isEqualTo(runs[0].normalized());
        List<String> passed = new ArrayList<>();
        for (Object v : runs[0].values()) {
            @SuppressWarnings("unchecked")
            InputRecord<Long> r = (InputRecord<Long>) v;
            passed.add(
                    r.isSnapshotRequest() ? "request" : r.kind() + " " + r.relation() + r.tuple() + " " + r.payload());
        }
        assertThat(passed)
                .containsExactly(
                        "INSERT R(1, 2) 3", "INSERT R(1, 2) -1", "request", "INSERT R(1, 2) -2", "INSERT R(1, 3) 6");
        List<String> reasons = new ArrayList<>();
        for (Object o : runs[0].side()) {
            DeadLetter d = (DeadLetter) ((StreamRecord<?>) o).getValue();
            reasons.add(d.origin() + ": " + d.reason());
        }
        assertThat(reasons)
                .containsExactly(
                        "line 4: delete of R(1, 9) with payload 4: R holds no such row; the delete is rejected and"
                                + " changes nothing",
                        "line 7: a -D of S(1), but S is insert-only in this plan; the relations with deletes are R",
                        "line 5: delete of R(1, 2) with payload 5: the row holds 2, a delete takes away part of that at"
                                + " most; the delete is rejected and changes nothing",
                        "line 8: delete of R(1, 2) with payload 8: R holds no such row; the delete is rejected and"
                                + " changes nothing");
    }
}
