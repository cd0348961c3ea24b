package io.flinkivm.core.engine.cyclic;

import io.flinkivm.core.engine.cyclic.CompiledBagJoin.Member;
import io.flinkivm.core.engine.cyclic.CompiledBagJoin.Program;
import io.flinkivm.core.engine.cyclic.CompiledBagJoin.Step;
import io.flinkivm.core.engine.maps.KeyValueState;
import io.flinkivm.core.query.Tuple;
import org.apache.flink.annotation.Internal;

/**
 * Insert-only maintenance of a cyclic full join of the indicator relations above the border, along a
 * tree decomposition (Thm. 1 beyond α-acyclic). Each bag materializes the join of its members, the
 * projections onto it of the root views that meet it; the bags then form an α-acyclic join, kept by
 * {@code LiveJoin} over the bag tuples this class produces, whose full join is the query's. When a root tuple crosses the border, each bag
 * whose member gains a new projection computes only the bag tuples that projection completes: a
 * generic (worst-case-optimal) join over the other members with the new tuple fixed, binding one
 * variable at a time to the values of the smallest candidate list that all other lists contain.
 *
 * <p>A bag tuple is produced exactly once, when the last of its members' projections arrives: the
 * arrival is new to that member, and the delta join reads the other members only (a second
 * production would be a bug, which the receiver of the bag tuples detects). A bag holds at
 * most N^ρ* tuples, and the generic join's work over all inserts is bounded like a worst-case-optimal
 * evaluation of the bag, hence amortized O(N^(fhtw-1)) per insert.
 *
 * <p>All state is in the {@link BagJoinStore}; the object itself only holds scratch bindings, the
 * scratch list keys of each step and counters of its work and of the tuples it produced, so use one per thread.
 */
@Internal
public final class CyclicBooleanJoin {
    private final CompiledBagJoin layout;
    private final Object[][] binding;
    /** The list keys of the delta join's step at each depth (the recursion uses one row per depth). */
    private final Tuple[][] stepKeys;

    private long scanned;
    private final long[] produced;

    public CyclicBooleanJoin(CompiledBagJoin layout) {
        this.layout = layout;
        binding = new Object[layout.nodeCount()][];
        for (int b = 0; b < binding.length; b++) {
            binding[b] = new Object[layout.bagWidth(b)];
        }
        produced = new long[binding.length];
        int depth = 0;
        int width = 0;
        for (int t = 0; t < layout.treeCount(); t++) {
            for (Member m : layout.membersOf(t)) {
                depth = Math.max(depth, m.program.steps.length);
                for (Step s : m.program.steps) {
                    width = Math.max(width, s.lists.length);
                }
            }
        }
        stepKeys = new Tuple[depth][width];
    }

    /** Receives each bag tuple when it is produced. */
    @FunctionalInterface
    public interface BagTuples {
        void produced(int bag, Tuple bagTuple);
    }

    /**
     * A root tuple of tree {@code tree} became non-zero for the first time: hands every bag tuple it
     * completes to {@code out}. Returns the number of new bag tuples.
     */
    public long insert(BagJoinStore store, int tree, Tuple rootTuple, BagTuples out) {
        long added = 0;
        for (Member m : layout.membersOf(tree)) {
            Tuple p = rootTuple.project(m.projection);
            KeyValueState<Tuple, Boolean> set = store.projection(m.set);
            if (set.get(p) != null) {
                continue;
            }
            set.put(p, Boolean.TRUE);
            for (int i = 0; i < m.lists.length; i++) {
                addToList(store, m.lists[i], p.project(m.listKeys[i]), p.get(m.listValues[i]));
            }
            added += deltaJoin(store, m.program, p, out);
        }
        return added;
    }

    private static void addToList(BagJoinStore store, int list, Tuple key, Object value) {
        Tuple entry = append(key, value);
        KeyValueState<Tuple, Tuple> next = store.listNext(list);
        if (next.get(entry) != null) {
            return;
        }
        KeyValueState<Tuple, Tuple> heads = store.listHead(list);
        Tuple head = heads.get(key);
        next.put(entry, head == null ? Tuple.EMPTY : head);
        heads.put(key, entry);
        KeyValueState<Tuple, Integer> sizes = store.listSize(list);
        Integer size = sizes.get(key);
        sizes.put(key, size == null ? 1 : size + 1);
    }

    private long deltaJoin(BagJoinStore store, Program program, Tuple seed, BagTuples out) {
        Object[] b = binding[program.bag];
        for (int i = 0; i < program.seedSlots.length; i++) {
            b[program.seedSlots[i]] = seed.get(i);
        }
        for (int c = 0; c < program.checkSets.length; c++) {
            if (store.projection(program.checkSets[c]).get(select(b, program.checkSlots[c])) == null) {
                return 0;
            }
        }
        return extend(store, program, 0, b, out);
    }

    /** Binds the variables of steps {@code step}.. in every way the lists allow; inserts each complete bag tuple. */
    private long extend(BagJoinStore store, Program program, int step, Object[] b, BagTuples out) {
        if (step == program.steps.length) {
            out.produced(program.bag, Tuple.wrap(b.clone()));
            produced[program.bag]++;
            return 1;
        }
        Step s = program.steps[step];
        int lists = s.lists.length;
        Tuple[] keys = stepKeys[step];
        int smallest = -1;
        int smallestSize = Integer.MAX_VALUE;
        for (int l = 0; l < lists; l++) {
            keys[l] = select(b, s.keySlots[l]);
            Integer size = store.listSize(s.lists[l]).get(keys[l]);
            if (size == null) {
                return 0;
            }
            if (size < smallestSize) {
                smallest = l;
                smallestSize = size;
            }
        }
        long added = 0;
        KeyValueState<Tuple, Tuple> next = store.listNext(s.lists[smallest]);
        for (Tuple e = store.listHead(s.lists[smallest]).get(keys[smallest]); e.arity() > 0; e = next.get(e)) {
            scanned++;
            Object value = e.get(e.arity() - 1);
            boolean everywhere = true;
            for (int l = 0; l < lists && everywhere; l++) {
                everywhere = l == smallest || store.listNext(s.lists[l]).get(append(keys[l], value)) != null;
            }
            if (everywhere) {
                b[s.slot] = value;
                added += extend(store, program, step + 1, b, out);
            }
        }
        return added;
    }

    /**
     * Candidate values the delta joins have scanned so far (over all bags): the generic join's work,
     * which Thm. 1 bounds by O(N^fhtw) in total.
     */
    public long scanned() {
        return scanned;
    }

    /** Bag tuples of bag {@code bag} this object has produced (live or waiting for a child bag). */
    public long produced(int bag) {
        return produced[bag];
    }

    private static Tuple select(Object[] binding, int[] slots) {
        if (slots.length == 0) {
            return Tuple.EMPTY;
        }
        Object[] out = new Object[slots.length];
        for (int i = 0; i < slots.length; i++) {
            out[i] = binding[slots[i]];
        }
        return Tuple.wrap(out);
    }

    private static Tuple append(Tuple key, Object value) {
        Object[] out = new Object[key.arity() + 1];
        for (int i = 0; i < key.arity(); i++) {
            out[i] = key.get(i);
        }
        out[key.arity()] = value;
        return Tuple.wrap(out);
    }
}
