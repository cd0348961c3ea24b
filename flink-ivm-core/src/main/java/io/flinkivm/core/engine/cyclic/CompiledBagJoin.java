package io.flinkivm.core.engine.cyclic;

import io.flinkivm.core.engine.join.CompiledJoinTree;
import io.flinkivm.core.engine.join.JoinLayout;
import io.flinkivm.core.plan.BagNode;
import io.flinkivm.core.plan.CyclicPHierarchicalPlan;
import io.flinkivm.core.plan.ViewTree;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.annotation.Internal;

/**
 * The part of a {@link CyclicPHierarchicalPlan} above the border, compiled to array
 * positions: for each bag, its <em>members</em> (the projections onto the bag of the root views
 * that meet it), their hash indexes, and for each member a generic-join program that finds the bag
 * tuples a new member tuple completes; and, as a {@link JoinLayout}, the join tree over the bags.
 *
 * <p>A member's indexes: its set of tuples, and for each step of another member's program that
 * extends a binding by one of its variables v, the list of distinct v-values per value of the
 * member's variables bound before v. Ids of sets and lists are global, for {@link BagJoinStore}.
 */
@Internal
public final class CompiledBagJoin extends CompiledJoinTree {

    /** One root view's projection onto one bag. */
    static final class Member {
        final int bag;
        /** Id of the member's tuple set. */
        final int set;
        /** Positions in the root tuple of the member's variables (bag order). */
        final int[] projection;
        /** The lists to update when the member gains a tuple, with key and value positions in it. */
        final int[] lists;

        final int[][] listKeys;
        final int[] listValues;
        /** The delta join when this member gains a tuple. */
        final Program program;

        Member(int bag, int set, int[] projection, int[] lists, int[][] listKeys, int[] listValues, Program program) {
            this.bag = bag;
            this.set = set;
            this.projection = projection;
            this.lists = lists;
            this.listKeys = listKeys;
            this.listValues = listValues;
            this.program = program;
        }
    }

    /**
     * Generic join over a bag's variables with one member's new tuple fixed: seed the binding, check
     * the members whose variables are all bound, then bind the other variables one at a time.
     */
    static final class Program {
        final int bag;
        /** Binding slot (position in the bag's variables) of each position of the new member tuple. */
        final int[] seedSlots;
        /** Member sets that must hold the binding's projection (members inside the seed). */
        final int[] checkSets;

        final int[][] checkSlots;
        final Step[] steps;

        Program(int bag, int[] seedSlots, int[] checkSets, int[][] checkSlots, Step[] steps) {
            this.bag = bag;
            this.seedSlots = seedSlots;
            this.checkSets = checkSets;
            this.checkSlots = checkSlots;
            this.steps = steps;
        }
    }

    /** Binds slot {@code slot} to the values that every list in {@code lists} has at its key. */
    static final class Step {
        final int slot;
        final int[] lists;
        /** Per list, the binding slots of its key. */
        final int[][] keySlots;

        Step(int slot, int[] lists, int[][] keySlots) {
            this.slot = slot;
            this.lists = lists;
            this.keySlots = keySlots;
        }
    }

    private final Member[][] membersOfTree;
    private final int[] bagWidth;
    private final int setCount;
    private final int listCount;

    public CompiledBagJoin(CyclicPHierarchicalPlan plan) {
        super(plan, bagNodes(plan), bagOrder(plan), "bag");
        List<ViewTree> trees = plan.viewTrees();
        List<BagNode> bags = plan.bags();
        List<List<Member>> byTree = new ArrayList<>();
        for (int i = 0; i < trees.size(); i++) {
            byTree.add(new ArrayList<>());
        }
        bagWidth = new int[bags.size()];
        int sets = 0;
        int lists = 0;
        for (BagNode bag : bags) {
            bagWidth[bag.index()] = bag.variables().size();
            BagCompiler c = new BagCompiler(bag, trees, sets, lists);
            for (int m = 0; m < c.members.size(); m++) {
                byTree.get(bag.trees().get(m)).add(c.members.get(m));
            }
            sets += bag.trees().size();
            lists = c.nextList;
        }
        setCount = sets;
        listCount = lists;
        membersOfTree = new Member[trees.size()][];
        for (int i = 0; i < trees.size(); i++) {
            membersOfTree[i] = byTree.get(i).toArray(new Member[0]);
        }
    }

    /** The join tree over the bags. */
    private static List<Node> bagNodes(CyclicPHierarchicalPlan plan) {
        List<Node> out = new ArrayList<>();
        for (BagNode bag : plan.bags()) {
            out.add(new Node(bag.variables(), bag.parent(), bag.key(), "bag " + bag.index()));
        }
        return out;
    }

    /** Bags are numbered in pre-order, root first. */
    private static int[] bagOrder(CyclicPHierarchicalPlan plan) {
        int[] order = new int[plan.bags().size()];
        for (int b = 0; b < order.length; b++) {
            order[b] = b;
        }
        return order;
    }

    /** Compiles one bag: its members, their indexes, and one program per member. */
    private static final class BagCompiler {
        final BagNode bag;
        final List<List<String>> schemas = new ArrayList<>();
        final Map<String, Integer> listIds = new LinkedHashMap<>();
        final List<List<Integer>> memberLists = new ArrayList<>();
        final List<List<String>> listKeyVars = new ArrayList<>();
        final List<String> listValueVar = new ArrayList<>();
        final List<Member> members = new ArrayList<>();
        final int firstSet;
        final int firstList;
        int nextList;

        BagCompiler(BagNode bag, List<ViewTree> trees, int firstSet, int firstList) {
            this.bag = bag;
            this.firstSet = firstSet;
            this.firstList = firstList;
            this.nextList = firstList;
            for (int t : bag.trees()) {
                List<String> s = new ArrayList<>();
                for (String v : bag.variables()) {
                    if (trees.get(t).schema().contains(v)) {
                        s.add(v);
                    }
                }
                schemas.add(s);
                memberLists.add(new ArrayList<>());
            }
            List<Program> programs = new ArrayList<>();
            for (int m = 0; m < schemas.size(); m++) {
                programs.add(program(m));
            }
            for (int m = 0; m < schemas.size(); m++) {
                List<String> s = schemas.get(m);
                ViewTree tree = trees.get(bag.trees().get(m));
                List<Integer> ls = memberLists.get(m);
                int[][] keys = new int[ls.size()][];
                int[] values = new int[ls.size()];
                for (int i = 0; i < ls.size(); i++) {
                    int local = ls.get(i) - firstList;
                    keys[i] = positions(s, listKeyVars.get(local), "bag " + bag.index());
                    values[i] = s.indexOf(listValueVar.get(local));
                }
                members.add(new Member(
                        bag.index(),
                        firstSet + m,
                        positions(tree.schema(), s, tree.displayName()),
                        ls.stream().mapToInt(Integer::intValue).toArray(),
                        keys,
                        values,
                        programs.get(m)));
            }
        }

        private int[] slots(List<String> vars) {
            return positions(bag.variables(), vars, "bag " + bag.index());
        }

        /** The generic join with member {@code m}'s new tuple fixed. */
        private Program program(int m) {
            List<String> vars = bag.variables();
            List<String> bound = new ArrayList<>(schemas.get(m));
            List<Integer> checkSets = new ArrayList<>();
            List<int[]> checkSlots = new ArrayList<>();
            for (int j = 0; j < schemas.size(); j++) {
                if (j != m && bound.containsAll(schemas.get(j))) {
                    checkSets.add(firstSet + j);
                    checkSlots.add(slots(schemas.get(j)));
                }
            }
            List<Step> steps = new ArrayList<>();
            while (bound.size() < vars.size()) {
                String next = null;
                int bestConstrained = -1;
                int bestMembers = -1;
                for (String v : vars) {
                    if (bound.contains(v)) {
                        continue;
                    }
                    int constrained = 0;
                    int with = 0;
                    for (int j = 0; j < schemas.size(); j++) {
                        if (j != m && schemas.get(j).contains(v)) {
                            with++;
                            if (!intersection(schemas.get(j), bound).isEmpty()) {
                                constrained++;
                            }
                        }
                    }
                    if (constrained > bestConstrained || constrained == bestConstrained && with > bestMembers) {
                        next = v;
                        bestConstrained = constrained;
                        bestMembers = with;
                    }
                }
                List<Integer> lists = new ArrayList<>();
                List<int[]> keySlots = new ArrayList<>();
                for (int j = 0; j < schemas.size(); j++) {
                    if (j != m && schemas.get(j).contains(next)) {
                        List<String> key = intersection(schemas.get(j), bound);
                        lists.add(list(j, key, next));
                        keySlots.add(slots(key));
                    }
                }
                if (lists.isEmpty()) {
                    throw new IllegalStateException(
                            "variable " + next + " of bag " + bag.index() + " is in no member's schema");
                }
                steps.add(new Step(
                        vars.indexOf(next),
                        lists.stream().mapToInt(Integer::intValue).toArray(),
                        keySlots.toArray(new int[0][])));
                bound.add(next);
            }
            return new Program(
                    bag.index(),
                    slots(schemas.get(m)),
                    checkSets.stream().mapToInt(Integer::intValue).toArray(),
                    checkSlots.toArray(new int[0][]),
                    steps.toArray(new Step[0]));
        }

        /** The id of member j's list of {@code value}s per {@code key}, created on first use. */
        private int list(int j, List<String> key, String value) {
            String name = j + "|" + String.join(",", key) + "|" + value;
            Integer id = listIds.get(name);
            if (id == null) {
                id = nextList++;
                listIds.put(name, id);
                listKeyVars.add(key);
                listValueVar.add(value);
                memberLists.get(j).add(id);
            }
            return id;
        }

        /** The variables of {@code schema} that are in {@code bound}, in schema (bag) order. */
        private static List<String> intersection(List<String> schema, List<String> bound) {
            List<String> out = new ArrayList<>();
            for (String v : schema) {
                if (bound.contains(v)) {
                    out.add(v);
                }
            }
            return out;
        }
    }

    /** The members fed by tree {@code tree}'s root view: one per bag that joins it. */
    Member[] membersOf(int tree) {
        return membersOfTree[tree];
    }

    /** Number of variables of bag {@code bag}. */
    int bagWidth(int bag) {
        return bagWidth[bag];
    }

    /** Number of member tuple sets, for {@link BagJoinStore#projection(int)}. */
    public int setCount() {
        return setCount;
    }

    /** Number of value lists, for {@link BagJoinStore#listHead(int)} and friends. */
    public int listCount() {
        return listCount;
    }

    @Override
    public String toString() {
        return "CompiledBagJoin[" + nodeCount() + " bags, " + setCount + " sets, " + listCount + " lists, " + plan()
                + "]";
    }
}
