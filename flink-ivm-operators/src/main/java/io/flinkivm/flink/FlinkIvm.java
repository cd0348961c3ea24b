package io.flinkivm.flink;

import io.flinkivm.core.plan.MaintenancePlan;
import io.flinkivm.core.plan.Planner;
import io.flinkivm.core.query.QueryParser;
import io.flinkivm.core.query.Tuple;
import io.flinkivm.core.semiring.Semiring;
import io.flinkivm.flink.types.InputRecord;
import io.flinkivm.flink.types.InputRecordTypeInfo;
import io.flinkivm.flink.types.PayloadTypes;
import java.util.List;
import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.api.common.functions.MapFunction;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.streaming.api.datastream.DataStream;

/**
 * flink-ivm's DataStream entry point: maintains a conjunctive query's result over a stream of inserts (and,
 * over a ring, deletes and updates). SQL over Flink tables is {@code FlinkIvmSql.sql} of the artifact
 * {@code flink-ivm-sql}, which brings Calcite; this artifact brings neither Calcite nor the Table API.
 *
 * <pre>{@code
 * DataStream<InputRecord<Long>> inserts = ...;
 * IvmJob<Long> job = FlinkIvm.maintain(inserts, "Q(A,C) :- R(A,B), S(A,C), T(C)", NaturalSemiring.INSTANCE,
 *         IvmOptions.defaults().withSnapshotEvery(10_000));
 * job.results().print();
 * }</pre>
 */
@PublicEvolving
public final class FlinkIvm {
    private FlinkIvm() {}

    /**
     * Plans {@code query} over {@code semiring} and builds the operators on {@code inserts}.
     *
     * @throws io.flinkivm.core.query.InvalidQueryException for a malformed query (before any job starts)
     * @throws io.flinkivm.core.plan.UnsupportedPlanException if the query cannot be planned as asked
     */
    public static <T> IvmJob<T> maintain(
            DataStream<InputRecord<T>> inserts, String query, Semiring<T> semiring, IvmOptions options) {
        MaintenancePlan plan =
                Planner.plan(options.withRelationKeys(QueryParser.parse(query)), semiring, options.strategy());
        return maintain(inserts, plan, semiring, options);
    }

    /**
     * Builds the operators of an existing plan on {@code inserts}.
     *
     * @throws IllegalArgumentException if {@code options} declare a key ({@link IvmOptions#withRelationKey})
     *     that the plan's query does not have: plan the query with it
     */
    public static <T> IvmJob<T> maintain(
            DataStream<InputRecord<T>> inserts, MaintenancePlan plan, Semiring<T> semiring, IvmOptions options) {
        return maintain(List.of(inserts), plan, semiring, options);
    }

    /**
     * {@link #maintain(DataStream, MaintenancePlan, Semiring, IvmOptions)} on several streams, as on
     * their union, with what can run on each stream in its own chain (a keyed plan's key route).
     *
     * @throws IllegalArgumentException if {@code options} declare a key that the plan's query does not have
     */
    public static <T> IvmJob<T> maintain(
            List<DataStream<InputRecord<T>>> inputs, MaintenancePlan plan, Semiring<T> semiring, IvmOptions options) {
        if (!options.withRelationKeys(plan.query()).equals(plan.query())) {
            throw new IllegalArgumentException("the options declare keys that the plan's query " + plan.query()
                    + " does not have: plan the query with them (IvmOptions.withRelationKeys, or"
                    + " ConjunctiveQuery.withKeys) or pass the query's text to FlinkIvm.maintain");
        }
        return new IvmJobBuilder<>(plan, semiring, options).build(inputs);
    }

    /** The type of input records for {@code semiring}, e.g. for {@code env.fromData(records, type)}. */
    public static <T> TypeInformation<InputRecord<T>> inputType(Semiring<T> semiring) {
        return new InputRecordTypeInfo<>(PayloadTypes.of(semiring));
    }

    /** Turns a stream of rows of one relation into inserts with payload one. */
    public static <T> DataStream<InputRecord<T>> rows(DataStream<Tuple> rows, String relation, Semiring<T> semiring) {
        return rows.map(new RowsToInserts<>(relation, semiring))
                .returns(inputType(semiring))
                .name("rows of " + relation);
    }

    private static final class RowsToInserts<T> implements MapFunction<Tuple, InputRecord<T>> {
        private static final long serialVersionUID = 1L;
        private final String relation;
        private final Semiring<T> semiring;

        RowsToInserts(String relation, Semiring<T> semiring) {
            this.relation = relation;
            this.semiring = semiring;
        }

        @Override
        public InputRecord<T> map(Tuple row) {
            return InputRecord.insert(relation, row, semiring.one());
        }
    }
}
