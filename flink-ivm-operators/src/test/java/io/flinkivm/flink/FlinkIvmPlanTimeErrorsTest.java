package io.flinkivm.flink;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.flinkivm.core.plan.Inputs;
import io.flinkivm.core.plan.MaintenancePlan;
import io.flinkivm.core.plan.Planner;
import io.flinkivm.core.plan.UnsupportedPlanException;
import io.flinkivm.core.query.InvalidQueryException;
import io.flinkivm.core.query.QueryParser;
import io.flinkivm.core.query.Tuple;
import io.flinkivm.core.semiring.IntegerRing;
import io.flinkivm.core.semiring.NaturalSemiring;
import io.flinkivm.core.semiring.Semiring;
import io.flinkivm.core.semiring.SemiringProperty;
import io.flinkivm.core.semiring.Semirings;
import io.flinkivm.flink.types.InputRecord;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.junit.jupiter.api.Test;

/** Bad queries and plan choices fail while the job is built, never later in a running job. */
class FlinkIvmPlanTimeErrorsTest {

    private static DataStream<InputRecord<Long>> inserts() {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        return env.fromData(
                List.of(InputRecord.insert("R", Tuple.of("a"), 1L)), FlinkIvm.inputType(NaturalSemiring.INSTANCE));
    }

    @Test
    void malformedQuery() {
        assertThatThrownBy(() ->
                        FlinkIvm.maintain(inserts(), "Q(A) :- R(A", NaturalSemiring.INSTANCE, IvmOptions.defaults()))
                .isInstanceOf(InvalidQueryException.class)
                .hasMessageContaining("position");
    }

    @Test
    void unknownSemiring() {
        assertThatThrownBy(() -> Semirings.byName("tropical-ish"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("unknown semiring");
    }

    @Test
    void semiringWhosePropertiesForbidThePlan() {
        Semiring<Long> notPositive = new NotPositive();
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        DataStream<InputRecord<Long>> in =
                env.fromData(List.of(InputRecord.insert("R", Tuple.of("a", "b"), 1L)), FlinkIvm.inputType(notPositive));
        assertThatThrownBy(() -> FlinkIvm.maintain(
                        in,
                        "Q(A) :- R(A,B)",
                        notPositive,
                        IvmOptions.defaults().withStrategy(Planner.Strategy.P_HIERARCHICAL)))
                .isInstanceOf(UnsupportedPlanException.class)
                .hasMessageContaining("not positive");
    }

    @Test
    void aPlanWithDeletesGetsARowCheckInFrontOfItsIngest() {
        IntegerRing z = IntegerRing.INSTANCE;
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        DataStream<InputRecord<Long>> in =
                env.fromData(List.of(InputRecord.insert("R", Tuple.of("a", "b"), 1L)), FlinkIvm.inputType(z));
        MaintenancePlan plan = Planner.plan(
                QueryParser.parse("Q(A) :- R(A,B), S(A)"), z, Planner.Strategy.AUTO, Inputs.changelog("R"));
        IvmJob<Long> job = FlinkIvm.maintain(in, plan, z, IvmOptions.defaults().withParallelism(2));
        assertThat(job.layout().explain())
                .contains("row check R (deletes of absent rows are dead letters): parallelism")
                .contains("ingest Q (validate, route, epochs): parallelism 2, forward from the row check")
                .contains("q-tree join of the root views");
    }

    @Test
    void queryTooLargeToPlan() {
        StringBuilder q = new StringBuilder("Q(A) :- ");
        for (int i = 0; i <= Planner.MAX_ATOMS; i++) {
            q.append(i == 0 ? "" : ", ").append("R(A)");
        }
        assertThatThrownBy(() ->
                        FlinkIvm.maintain(inserts(), q.toString(), NaturalSemiring.INSTANCE, IvmOptions.defaults()))
                .isInstanceOf(UnsupportedPlanException.class)
                .hasMessageContaining("query too large to plan");
    }

    @Test
    void keysInTheOptionsThatThePlanLacks() {
        assertThatThrownBy(() -> FlinkIvm.maintain(
                        inserts(),
                        Planner.plan(
                                io.flinkivm.core.query.QueryParser.parse("Q(A) :- R(A)"), NaturalSemiring.INSTANCE),
                        NaturalSemiring.INSTANCE,
                        IvmOptions.defaults().withRelationKey("R", 0)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("the options declare keys that the plan's query Q(A) :- R(A) does not have");
        assertThatThrownBy(() -> FlinkIvm.maintain(
                        inserts(),
                        "Q(A) :- R(A) KEY R(A)",
                        NaturalSemiring.INSTANCE,
                        IvmOptions.defaults().withRelationKey("R")))
                .isInstanceOf(InvalidQueryException.class)
                .hasMessageContaining("relation R has the key R(A) (columns [0]) in the query and columns []");
    }

    @Test
    void planForAnotherSemiring() {
        assertThatThrownBy(() -> FlinkIvm.maintain(
                        inserts(),
                        Planner.plan(
                                io.flinkivm.core.query.QueryParser.parse("Q(A) :- R(A)"), Semirings.byName("boolean")),
                        NaturalSemiring.INSTANCE,
                        IvmOptions.defaults()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("plan was made for semiring boolean");
    }

    /** Natural numbers modulo 6: commutative, not positive (2·3 = 0). */
    private static final class NotPositive implements Semiring<Long> {
        private static final long serialVersionUID = 1L;

        @Override
        public String name() {
            return "mod-6";
        }

        @Override
        public Long zero() {
            return 0L;
        }

        @Override
        public Long one() {
            return 1L;
        }

        @Override
        public Long plus(Long a, Long b) {
            return (a + b) % 6;
        }

        @Override
        public Long times(Long a, Long b) {
            return (a * b) % 6;
        }

        @Override
        public Long parse(String text) {
            return Long.parseLong(text.trim()) % 6;
        }

        @Override
        public String format(Long value) {
            return value.toString();
        }

        @Override
        public Class<Long> payloadClass() {
            return Long.class;
        }

        @Override
        public Set<SemiringProperty> properties() {
            return EnumSet.of(SemiringProperty.COMMUTATIVE);
        }
    }
}
