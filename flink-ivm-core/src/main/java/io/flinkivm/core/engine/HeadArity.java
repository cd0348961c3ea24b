package io.flinkivm.core.engine;

import io.flinkivm.core.query.ConjunctiveQuery;
import io.flinkivm.core.query.Tuple;

/** The check every engine's {@code lookup} makes on its argument. */
final class HeadArity {
    private HeadArity() {}

    static void check(ConjunctiveQuery query, Tuple head) {
        if (head.arity() != query.head().size()) {
            throw new IllegalArgumentException("a result tuple of " + query.name() + " has "
                    + query.head().size() + " values (" + String.join(",", query.head()) + "), got " + head.arity());
        }
    }
}
