package io.flinkivm.examples.bench;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The multi-way join option is real: Flink 2.2.1's planner makes a MultiJoin with it and none without. */
class FlinkSqlSystemTest {

    @Test
    void theMultiJoinOptionProducesAMultiJoinForExample10() {
        Workload ex10 = new Example10Workload();

        assertThat(new FlinkSqlSystem(true).explain(ex10)).contains("MultiJoin");
        assertThat(new FlinkSqlSystem(false).explain(ex10)).doesNotContain("MultiJoin").contains("Join(");
        assertThat(new FlinkSqlSystem(true).appliesTo(ex10)).isTrue();
        assertThat(new FlinkSqlSystem(false).appliesTo(new PathWorkload())).isTrue();
    }
}
