package io.flinkivm.core.oracle;

import io.flinkivm.core.query.Tuple;
import io.flinkivm.core.semiring.Semiring;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import org.apache.flink.annotation.PublicEvolving;

/**
 * A K-database built from inserts: each relation maps tuples to payloads, an insert adds its payload
 * with K's +, payload zero is a no-op, and a tuple whose payload sums to zero is absent. The input
 * of {@link NaiveEvaluator}. Not thread-safe.
 *
 * @param <T> the payload type
 */
@PublicEvolving
public final class KDatabase<T> {
    private final Semiring<T> semiring;
    private final Map<String, Map<Tuple, T>> relations = new LinkedHashMap<>();

    public KDatabase(Semiring<T> semiring) {
        this.semiring = Objects.requireNonNull(semiring, "semiring");
    }

    public Semiring<T> semiring() {
        return semiring;
    }

    /** Adds {@code payload} to {@code tuple} in {@code relation}. */
    public void insert(String relation, Tuple tuple, T payload) {
        Objects.requireNonNull(relation, "relation");
        Objects.requireNonNull(tuple, "tuple");
        Objects.requireNonNull(payload, "payload");
        if (semiring.isZero(payload)) {
            return;
        }
        Map<Tuple, T> r = relations.computeIfAbsent(relation, name -> new HashMap<>());
        T old = r.get(tuple);
        T updated = old == null ? payload : semiring.plus(old, payload);
        if (semiring.isZero(updated)) {
            r.remove(tuple);
        } else {
            r.put(tuple, updated);
        }
    }

    /** The payload of {@code tuple} in {@code relation}, zero if absent. */
    public T payload(String relation, Tuple tuple) {
        T v = relations.getOrDefault(relation, Map.of()).get(tuple);
        return v == null ? semiring.zero() : v;
    }

    /** A read-only view: relation name → tuple → non-zero payload. */
    public Map<String, Map<Tuple, T>> relations() {
        Map<String, Map<Tuple, T>> view = new LinkedHashMap<>();
        relations.forEach((name, r) -> view.put(name, Collections.unmodifiableMap(r)));
        return Collections.unmodifiableMap(view);
    }
}
