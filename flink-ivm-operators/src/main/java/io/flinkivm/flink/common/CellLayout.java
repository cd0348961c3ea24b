package io.flinkivm.flink.common;

import io.flinkivm.core.partition.Shares;
import io.flinkivm.core.query.Tuple;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.flink.annotation.Internal;
import org.apache.flink.api.common.state.ListState;
import org.apache.flink.api.common.state.ListStateDescriptor;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.runtime.state.KeyGroupRangeAssignment;
import org.apache.flink.runtime.state.StateInitializationContext;

/**
 * The cells of a HyperCube-partitioned operator ({@link Shares}) and the key of each: cell c's key is
 * the smallest integer tuple that Flink's key groups send to subtask c mod p, in a key group of its
 * own, so that the cells spread evenly over the operator's p subtasks and no two cells share a key
 * group (an operator that keeps its state per key group keeps each cell's apart). The keys name the cells' state, so a job keeps its
 * layout when it restores from a checkpoint or savepoint at another parallelism ({@link #restoreOr}):
 * the cells then move between subtasks with their key groups, and their number stays what the job
 * started with.
 */
@Internal
public final class CellLayout implements Serializable {
    private static final long serialVersionUID = 1L;
    private static final String STATE = "cell-layout";

    private final Shares shares;
    private final Tuple[] keys;

    private CellLayout(Shares shares, Tuple[] keys) {
        this.shares = shares;
        this.keys = keys;
    }

    /** The layout of {@code shares} on an operator with {@code parallelism} subtasks of {@code maxParallelism} key groups. */
    public static CellLayout create(Shares shares, int parallelism, int maxParallelism) {
        int cells = shares.cells();
        Tuple[] keys = new Tuple[cells];
        if (cells > maxParallelism) {
            throw new IllegalArgumentException(
                    cells + " cells need at least as many key groups, not " + maxParallelism);
        }
        Set<Integer> usedGroups = new HashSet<>();
        for (int c = 0; c < cells; c++) {
            int target = c % parallelism;
            for (int candidate = 0; ; candidate++) {
                Tuple key = Tuple.of(candidate);
                int group = KeyGroupRangeAssignment.assignToKeyGroup(key, maxParallelism);
                if (!usedGroups.contains(group)
                        && KeyGroupRangeAssignment.computeOperatorIndexForKeyGroup(maxParallelism, parallelism, group)
                                == target) {
                    usedGroups.add(group);
                    keys[c] = key;
                    break;
                }
            }
        }
        return new CellLayout(shares, keys);
    }

    /**
     * The layout restored from operator state under {@link #STATE} if the job restored one, else
     * {@code fresh}; the state is updated, so the next checkpoint keeps it.
     */
    public static CellLayout restoreOr(StateInitializationContext context, CellLayout fresh) throws Exception {
        ListState<String> state =
                context.getOperatorStateStore().getUnionListState(new ListStateDescriptor<>(STATE, Types.STRING));
        CellLayout layout = fresh;
        for (String encoded : state.get()) {
            layout = decode(encoded);
            break;
        }
        state.update(List.of(layout.encode()));
        return layout;
    }

    public Shares shares() {
        return shares;
    }

    public int cells() {
        return keys.length;
    }

    public Tuple key(int cell) {
        return keys[cell];
    }

    /** {@code variables;shares;keys}, e.g. {@code A,C;2,2;0,3,1,7}. */
    public String encode() {
        StringBuilder sb = new StringBuilder(String.join(",", shares.variables())).append(';');
        int[] s = shares.shares();
        for (int i = 0; i < s.length; i++) {
            sb.append(i == 0 ? "" : ",").append(s[i]);
        }
        sb.append(';');
        for (int i = 0; i < keys.length; i++) {
            sb.append(i == 0 ? "" : ",").append(keys[i].get(0));
        }
        return sb.toString();
    }

    public static CellLayout decode(String encoded) {
        String[] parts = encoded.split(";", -1);
        if (parts.length != 3) {
            throw new IllegalStateException("corrupt cell layout in state: " + encoded);
        }
        List<String> variables = parts[0].isEmpty() ? List.of() : Arrays.asList(parts[0].split(","));
        int[] shares = parts[1].isEmpty()
                ? new int[0]
                : Arrays.stream(parts[1].split(",")).mapToInt(Integer::parseInt).toArray();
        List<Tuple> keys = new ArrayList<>();
        for (String k : parts[2].split(",")) {
            keys.add(Tuple.of(Integer.parseInt(k)));
        }
        Shares s = new Shares(variables, shares);
        if (s.cells() != keys.size()) {
            throw new IllegalStateException("corrupt cell layout in state: " + encoded);
        }
        return new CellLayout(s, keys.toArray(new Tuple[0]));
    }
}
