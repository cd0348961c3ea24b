package io.flinkivm.core.engine;

import io.flinkivm.core.plan.BagNode;
import io.flinkivm.core.plan.MaintenancePlan;
import io.flinkivm.core.plan.PlanKind;
import io.flinkivm.core.plan.ViewTree;
import io.flinkivm.core.query.Tuple;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The part of a {@link PlanKind#CYCLIC_P_HIERARCHICAL} plan above the border, compiled to array
 * positions: for each bag, its <em>members</em> (the projections onto the bag of the root views
 * that meet it), their hash indexes, and for each member a generic-join program that finds the bag
 * tuples a new member tuple completes; and, as a {@link JoinLayout}, the join tree over the bags.
 *
 * <p>A member's indexes: its set of tuples, and for each step of another member's program that
 * extends a binding by one of its variables v, the list of distinct v-values per value of the
 * member's variables bound before v. Ids of sets and lists are global, for {@link BagJoinStore}.
 */
public final class CompiledBagJoin implements JoinLayout {

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

    private final MaintenancePlan plan;
    private final Member[][] membersOfTree;
    private final int[] bagWidth;
    private final int setCount;
    private final int listCount;
    private final int[][] rootKeyInHead;
    private final int[] parent;
    private final int[][] children;
    private final int[] childIndexInParent;
    private final int[][] keyInOwn;
    private final int[][] keyInParent;
    private final int[] order;
    private final int[] orderParentPosition;
    private final int[] headBag;
    private final int[] headPosition;

    public CompiledBagJoin(MaintenancePlan plan) {
        if (plan.kind() != PlanKind.CYCLIC_P_HIERARCHICAL) {
            throw new IllegalArgumentException("not a cyclic p-hierarchical plan: " + plan);
        }
        this.plan = plan;
        List<ViewTree> trees = plan.viewTrees();
        List<BagNode> bags = plan.bags();
        List<String> head = plan.query().head();
        rootKeyInHead = new int[trees.size()][];
        for (ViewTree t : trees) {
            rootKeyInHead[t.index()] = CompiledPlan.positions(head, t.schema(), t.displayName());
        }
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
        // The join tree over the bags (bags are in pre-order, root first).
        int n = bags.size();
        parent = new int[n];
        children = new int[n][];
        childIndexInParent = new int[n];
        keyInOwn = new int[n][];
        keyInParent = new int[n][];
        order = new int[n];
        orderParentPosition = new int[n];
        List<List<Integer>> kids = new ArrayList<>();
        for (int b = 0; b < n; b++) {
            kids.add(new ArrayList<>());
        }
        for (BagNode bag : bags) {
            int b = bag.index();
            parent[b] = bag.parent();
            order[b] = b;
            orderParentPosition[b] = bag.parent();
            String where = "bag " + b;
            keyInOwn[b] = CompiledPlan.positions(bag.variables(), bag.key(), where);
            if (bag.parent() >= 0) {
                keyInParent[b] = CompiledPlan.positions(bags.get(bag.parent()).variables(), bag.key(), where);
                childIndexInParent[b] = kids.get(bag.parent()).size();
                kids.get(bag.parent()).add(b);
            } else {
                keyInParent[b] = new int[0];
                childIndexInParent[b] = -1;
            }
        }
        for (int b = 0; b < n; b++) {
            children[b] = kids.get(b).stream().mapToInt(Integer::intValue).toArray();
        }
        headBag = new int[head.size()];
        headPosition = new int[head.size()];
        for (int h = 0; h < head.size(); h++) {
            headBag[h] = -1;
            for (int b = 0; b < n && headBag[h] < 0; b++) {
                int pos = bags.get(b).variables().indexOf(head.get(h));
                if (pos >= 0) {
                    headBag[h] = b;
                    headPosition[h] = pos;
                }
            }
            if (headBag[h] < 0) {
                throw new IllegalStateException("free variable " + head.get(h) + " is in no bag of " + plan);
            }
        }
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
                    keys[i] = CompiledPlan.positions(s, listKeyVars.get(local), "bag " + bag.index());
                    values[i] = s.indexOf(listValueVar.get(local));
                }
                members.add(new Member(bag.index(), firstSet + m,
                        CompiledPlan.positions(tree.schema(), s, tree.displayName()),
                        ls.stream().mapToInt(Integer::intValue).toArray(), keys, values, programs.get(m)));
            }
        }

        private int[] slots(List<String> vars) {
            return CompiledPlan.positions(bag.variables(), vars, "bag " + bag.index());
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
                    throw new IllegalStateException("variable " + next + " of bag " + bag.index()
                            + " is in no member's schema");
                }
                steps.add(new Step(vars.indexOf(next), lists.stream().mapToInt(Integer::intValue).toArray(),
                        keySlots.toArray(new int[0][])));
                bound.add(next);
            }
            return new Program(bag.index(), slots(schemas.get(m)), checkSets.stream().mapToInt(Integer::intValue)
                    .toArray(), checkSlots.toArray(new int[0][]), steps.toArray(new Step[0]));
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

    public MaintenancePlan plan() {
        return plan;
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

    public int treeCount() {
        return membersOfTree.length;
    }

    /** A result tuple (head order) projected onto tree {@code tree}'s root schema. */
    public Tuple rootKeyOfHead(int tree, Tuple head) {
        return head.project(rootKeyInHead[tree]);
    }

    @Override
    public int nodeCount() {
        return parent.length;
    }

    @Override
    public int[] joinChildren(int bag) {
        return children[bag];
    }

    @Override
    public int childIndexInParent(int bag) {
        return childIndexInParent[bag];
    }

    @Override
    public int joinParent(int bag) {
        return parent[bag];
    }

    @Override
    public Tuple keyToParent(int bag, Tuple bagTuple) {
        return bagTuple.project(keyInOwn[bag]);
    }

    @Override
    public Tuple keyOfChild(int child, Tuple parentTuple) {
        return parentTuple.project(keyInParent[child]);
    }

    @Override
    public int[] order() {
        return order;
    }

    @Override
    public int[] orderParentPosition() {
        return orderParentPosition;
    }

    @Override
    public Tuple assembleHead(Tuple[] byOrderPosition) {
        Object[] values = new Object[headBag.length];
        for (int h = 0; h < values.length; h++) {
            values[h] = byOrderPosition[headBag[h]].get(headPosition[h]);
        }
        return Tuple.wrap(values);
    }

    @Override
    public String toString() {
        return "CompiledBagJoin[" + parent.length + " bags, " + setCount + " sets, " + listCount + " lists, " + plan + "]";
    }
}
