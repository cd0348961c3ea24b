package io.flinkivm.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The variants' options are real: Flink 2.2.1's planner changes the plan as they say. */
class FlinkSqlSystemTest {

    @Test
    void theMultiJoinOptionProducesAMultiJoinForExample10() {
        Workload ex10 = new Example10Workload();

        assertThat(new FlinkSqlSystem(true).explain(ex10)).contains("MultiJoin");
        assertThat(new FlinkSqlSystem(false).explain(ex10))
                .doesNotContain("MultiJoin")
                .contains("Join(");
        assertThat(new FlinkSqlSystem(true).appliesTo(ex10)).isTrue();
        assertThat(new FlinkSqlSystem(false).appliesTo(new PathWorkload())).isTrue();
    }

    @Test
    void miniBatchMakesMiniBatchJoinsAndATwoPhaseAggregate() {
        Workload ex10 = new Example10Workload();

        String plan = FlinkSqlSystem.miniBatch().explain(ex10);
        String optimized = plan.substring(plan.indexOf("== Optimized Execution Plan =="));

        assertThat(FlinkSqlSystem.miniBatch().name()).isEqualTo("flink-sql-minibatch");
        assertThat(optimized)
                .contains(
                        "MiniBatchAssigner(interval=[2000ms], mode=[ProcTime])",
                        "LocalGroupAggregate(",
                        "GlobalGroupAggregate(",
                        "miniBatch=[true]")
                .doesNotContain("MultiJoin");
        assertThat(new FlinkSqlSystem().explain(ex10))
                .doesNotContain("MiniBatchAssigner", "LocalGroupAggregate", "miniBatch=[true]");
    }

    @Test
    void tpchsTablesDeclareTheirKeysSoItsJoinsCanKeepUniqueKeyState() {
        for (Workload tpch : List.of(new TpchWorkload(), new ChangesWorkload(new TpchWorkload()))) {
            String plan = new FlinkSqlSystem().explain(tpch);

            // Customer ⋈ Orders on custkey: customer's key is the join key, orders' key is kept.
            assertThat(plan)
                    .as(tpch.name())
                    .contains("leftInputSpec=[JoinKeyContainsUniqueKey], rightInputSpec=[HasUniqueKey]");
        }
        assertThat(FlinkSqlSystem.keys(new TpchWorkload()))
                .isEqualTo("primary keys Customer(c1), Orders(c1), Lineitem(c1, c2)");
    }

    @Test
    void generatedRelationsThatMayRepeatATupleHaveNoKey() {
        assertThat(new FlinkSqlSystem().explain(new Example10Workload()))
                .contains("NoUniqueKey")
                .doesNotContain("JoinKeyContainsUniqueKey", "HasUniqueKey");
        assertThat(FlinkSqlSystem.keys(new StarWorkload()))
                .isEqualTo("no primary keys (the generator may repeat a relation's tuple)");
    }

    @Test
    void theMiniBatchPeerOnRocksDb() {
        FlinkSqlSystem s = FlinkSqlSystem.miniBatchOnRocksDb();

        assertThat(s.name()).isEqualTo("flink-sql-minibatch-rocksdb");
        assertThat(s.describe(new TpchWorkload()))
                .contains(
                        "table.exec.mini-batch.enabled = true",
                        "table.optimizer.agg-phase-strategy = TWO_PHASE",
                        "rocksdb");
    }
}
