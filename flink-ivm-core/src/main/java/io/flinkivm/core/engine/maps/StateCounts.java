package io.flinkivm.core.engine.maps;

import org.apache.flink.annotation.PublicEvolving;

/**
 * The state operations of an in-memory engine made with it, by the role of the map: a <em>read</em>
 * is one key looked up in a hash map, a <em>write</em> one key stored in or removed from it (each a
 * probe of the map, as one {@code HashMap.merge} upsert is). Updating a join view's child slots in
 * the entry just looked up is not a further operation. The engines look up each delta's key once in
 * the join view it reaches, so {@link #reads(Role) reads(JOIN_VIEW)} is also the number of deltas
 * applied to join views, and {@link #writes(Role) writes(ROOT_VIEW)} the number of root-view updates.
 *
 * <p>For benchmarks and tests: an engine made with one counts in every map; an engine made without
 * one counts nothing (its maps test a null field per operation). Not thread-safe.
 */
@PublicEvolving
public final class StateCounts {

    /** What a map holds. */
    public enum Role {
        /** A stateful join view of a view tree (child payloads per key). */
        JOIN_VIEW,
        /** A root view (payload per root tuple). */
        ROOT_VIEW,
        /** The Boolean join above the border: live and waiting lists, missing counts (and a cyclic plan's bags). */
        BOOLEAN_JOIN,
        /** The delta joins of the fallback or the ablation: the atoms' relations and their indexes. */
        DELTA_JOIN,
        /** A materialized result (the fallback's, the ablation's). */
        RESULT
    }

    /** The counts of one role; the counting maps add to it directly. */
    static final class Cell {
        long reads;
        long writes;
    }

    private final Cell[] cells = new Cell[Role.values().length];

    public StateCounts() {
        for (int i = 0; i < cells.length; i++) {
            cells[i] = new Cell();
        }
    }

    Cell cell(Role role) {
        return cells[role.ordinal()];
    }

    /** Keys looked up in maps of {@code role}. */
    public long reads(Role role) {
        return cells[role.ordinal()].reads;
    }

    /** Keys stored in or removed from maps of {@code role}. */
    public long writes(Role role) {
        return cells[role.ordinal()].writes;
    }

    /** Reads and writes in maps of {@code role}. */
    public long operations(Role role) {
        return reads(role) + writes(role);
    }

    /** Keys looked up, over all maps. */
    public long reads() {
        long total = 0;
        for (Cell c : cells) {
            total += c.reads;
        }
        return total;
    }

    /** Keys stored or removed, over all maps. */
    public long writes() {
        long total = 0;
        for (Cell c : cells) {
            total += c.writes;
        }
        return total;
    }

    /** Reads and writes over all maps. */
    public long operations() {
        return reads() + writes();
    }

    /** A copy of the counts so far (counting goes on in this object only). */
    public StateCounts snapshot() {
        StateCounts copy = new StateCounts();
        for (int i = 0; i < cells.length; i++) {
            copy.cells[i].reads = cells[i].reads;
            copy.cells[i].writes = cells[i].writes;
        }
        return copy;
    }

    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder("StateCounts{reads ")
                .append(reads())
                .append(", writes ")
                .append(writes());
        for (Role r : Role.values()) {
            if (operations(r) > 0) {
                sb.append(", ")
                        .append(r)
                        .append(' ')
                        .append(reads(r))
                        .append('/')
                        .append(writes(r));
            }
        }
        return sb.append('}').toString();
    }
}
