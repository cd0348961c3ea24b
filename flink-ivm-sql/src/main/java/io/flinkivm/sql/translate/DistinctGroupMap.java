package io.flinkivm.sql.translate;

import io.flinkivm.core.query.Tuple;
import io.flinkivm.core.semiring.Ring;
import io.flinkivm.core.semiring.Semiring;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.annotation.Internal;

/**
 * The groups of a query with COUNT(DISTINCT ...) kept in memory ({@link DistinctGroups#apply} over maps),
 * for the command line's in-memory engine and for tests: result tuples' changes go in, and the groups
 * whose rows they changed come out, each once, with its row before and after.
 */
@Internal
public final class DistinctGroupMap {
    /** A group whose row changed: its {@code before} and {@code after} (null where it was or is not there). */
    public record Change(Tuple group, DistinctGroups.Group before, DistinctGroups.Group after) {}

    private final DistinctGroups distinct;
    private final Ring<?> ring;
    private final Map<Tuple, DistinctGroups.Group> groups = new HashMap<>();
    private final Map<Tuple, Map<Tuple, Long>> pairs = new HashMap<>();
    private final DistinctGroups.PairCounts<RuntimeException> pairCounts = this::addPair;
    /** The groups changed since the last {@link #drain}, with their rows before the first change. */
    private final Map<Tuple, DistinctGroups.Group> touched = new LinkedHashMap<>();

    /**
     * @param translation a translation with COUNT(DISTINCT ...) ({@link SqlTranslation#distinctGroups})
     * @param planSemiring the semiring of the payloads that {@link #change} takes
     */
    public DistinctGroupMap(SqlTranslation translation, Semiring<?> planSemiring) {
        this.distinct = translation.distinctGroups();
        if (distinct == null) {
            throw new IllegalArgumentException(translation.sql() + " has no COUNT(DISTINCT ...)");
        }
        this.ring = DistinctGroups.ring(planSemiring);
    }

    /**
     * A result tuple's payload changed from {@code before} to {@code after} (null where it was not, or
     * no longer is, in the result).
     */
    public void change(Tuple tuple, Object before, Object after) {
        Tuple group = distinct.group(tuple);
        DistinctGroups.Group old = groups.get(group);
        if (!touched.containsKey(group)) {
            touched.put(group, old);
        }
        DistinctGroups.Group now = distinct.apply(ring, old, tuple, before, after, pairCounts);
        if (now == null) {
            groups.remove(group);
        } else {
            groups.put(group, now);
        }
    }

    /** The groups whose rows changed since the last call (in the order first changed), and forgets them. */
    public List<Change> drain() {
        List<Change> out = new ArrayList<>();
        touched.forEach((group, before) -> {
            DistinctGroups.Group after = groups.get(group);
            if (before == null ? after != null : !before.equals(after)) {
                out.add(new Change(group, before, after));
            }
        });
        touched.clear();
        return out;
    }

    /** Forgets every group and pair, for a fold of a new snapshot. */
    public void clear() {
        groups.clear();
        pairs.clear();
        touched.clear();
    }

    /** The groups now, each with its payload. */
    public Map<Tuple, DistinctGroups.Group> groups() {
        return groups;
    }

    private long addPair(Tuple group, Tuple pair, long delta) {
        Map<Tuple, Long> counts = pairs.computeIfAbsent(group, g -> new HashMap<>());
        long n = counts.getOrDefault(pair, 0L) + delta;
        if (n == 0) {
            counts.remove(pair);
            if (counts.isEmpty()) {
                pairs.remove(group);
            }
        } else {
            counts.put(pair, n);
        }
        return n;
    }
}
