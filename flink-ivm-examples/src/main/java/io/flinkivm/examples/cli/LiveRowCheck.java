package io.flinkivm.examples.cli;

import io.flinkivm.core.engine.AbsentRowException;
import io.flinkivm.core.engine.LiveRows;
import io.flinkivm.core.engine.maps.OpenHashMap;
import io.flinkivm.core.plan.Inputs;
import io.flinkivm.core.query.ChangeKind;
import io.flinkivm.core.query.Tuple;
import io.flinkivm.core.semiring.Ring;
import io.flinkivm.core.semiring.Semiring;
import java.util.HashMap;
import java.util.Map;

/**
 * The live rows of the relations with deletes while {@code run --engine flink} reads its input: each
 * {@code -D} or {@code -U} line is checked here with core's {@link LiveRows}, as the in-memory engine
 * checks it, so a line that deletes an absent row (or more than it holds) is rejected while it is read
 * and the triggers count the same accepted lines on both engines. The job then runs without its own
 * row check ({@link io.flinkivm.flink.IvmOptions#withRowCheck}).
 */
final class LiveRowCheck<T> {
    private final LiveRows<T> logic;
    private final Map<String, OpenHashMap<Tuple, T>> rows = new HashMap<>();

    /** A check of {@code inputs}' changelog relations; none if they are all insert-only. */
    static <T> LiveRowCheck<T> of(Semiring<T> semiring, Inputs inputs) {
        if (inputs.isInsertOnly()) {
            return null;
        }
        if (!(semiring instanceof Ring<T> ring)) {
            throw new IllegalStateException("a plan with deletes over " + semiring.name() + ", which is not a ring");
        }
        return new LiveRowCheck<>(ring, inputs);
    }

    private LiveRowCheck(Ring<T> ring, Inputs inputs) {
        this.logic = new LiveRows<>(ring);
        for (String r : inputs.changelog()) {
            rows.put(r, new OpenHashMap<>());
        }
    }

    /**
     * Records the change, or rejects it (nothing changes) if it takes away what its row does not hold,
     * or a sum overflows.
     */
    void check(ChangeKind kind, String relation, Tuple tuple, T payload) throws RejectedLineException {
        OpenHashMap<Tuple, T> live = rows.get(relation);
        if (live == null) {
            return;
        }
        try {
            logic.write(live, tuple, logic.after(live, relation, tuple, payload, kind.isRetraction()));
        } catch (AbsentRowException e) {
            throw new RejectedLineException(e.getMessage());
        } catch (ArithmeticException e) {
            throw ChangeLines.overflow(kind, e);
        }
    }
}
