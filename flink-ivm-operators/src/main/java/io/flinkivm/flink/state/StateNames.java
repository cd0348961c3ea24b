package io.flinkivm.flink.state;

/** Names of flink-ivm's keyed state; part of the savepoint format, so keep them stable. */
public final class StateNames {
    private StateNames() {
    }

    /** A stateful join view of a view tree: its children's payloads by key (within the tree's key). */
    public static String view(int node) {
        return "view-" + node;
    }

    /** A view tree's root payload, under the tree operator's key (the root tuple). */
    public static final String ROOT_PAYLOAD = "root-payload";

    /** A tree operator's partial aggregates of a root view with an empty schema, per epoch. */
    public static final String PARTIALS = "root-partials";

    /** The sink's copy of tree {@code tree}'s root-view payloads. */
    public static String rootPayloads(int tree) {
        return "root-payloads-" + tree;
    }

    // The border sink's Boolean join and bags are named by core's BooleanJoinMaps and BagJoinMaps
    // ("live-head-0", "bag-set-0", ...), where the maps are laid out.

    public static String relation(int atom) {
        return "relation-" + atom;
    }

    public static String indexHead(int atom, int index) {
        return "index-head-" + atom + "-" + index;
    }

    public static String indexNext(int atom, int index) {
        return "index-next-" + atom + "-" + index;
    }

    public static final String RESULT = "result";

    /** An ingest subtask's epoch, counts and position (union operator state). */
    public static final String INGEST_EPOCHS = "ingest-epochs";

    /** A sink's record of the epochs the ingest subtasks ended (union operator state). */
    public static final String EPOCH_CUTS = "epoch-cuts";

    /** In changelog mode, the rows last emitted. */
    public static final String EMITTED = "emitted";

    /** A snapshotting operator's counters (last trigger, processing-time snapshots). */
    public static final String SNAPSHOT_COUNTERS = "snapshot-counters";

    /** Records held back by an operator until the watermark passes their timestamp. */
    public static final String HELD_BACK = "held-back";
}
