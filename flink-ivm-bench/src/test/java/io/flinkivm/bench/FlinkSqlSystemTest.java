package io.flinkivm.bench;

import static org.assertj.core.api.Assertions.assertThat;

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
}
