package io.flinkivm.core.engine.qtree;

import io.flinkivm.core.query.Tuple;
import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import org.apache.flink.annotation.Internal;

/**
 * The bytes of a {@link QTreeEntry}, for runtimes that store entries outside the heap (Flink's keyed
 * state, checkpoints): the slot and child counts, a flags byte, the support counters, then the
 * payloads, the lists' keys and, with a changelog, what they were at the last trigger. Payloads and
 * tuples are written by the caller's {@link Io}s.
 */
@Internal
public final class QTreeEntryFormat {
    private static final int LISTED = 1;
    private static final int LISTED_THEN = 2;
    private static final int DIRTY = 4;
    private static final int HAS_THEN = 8;
    private static final int CHANGELOG = 16;

    private static final int ABSENT = 0;
    private static final int PRESENT = 1;
    private static final int CLEAN = 2;

    private QTreeEntryFormat() {}

    /** Writes and reads one value. */
    public interface Io<X> {
        void write(X value, DataOutput out) throws IOException;

        X read(DataInput in) throws IOException;
    }

    /** Writes {@code e}. */
    public static <T> void write(QTreeEntry<T> e, Io<T> payloads, Io<Tuple> tuples, DataOutput out) throws IOException {
        if (e.payloads.length > 255 || e.heads.length > 255) {
            throw new IllegalStateException("a q-tree entry with " + e.payloads.length + " slots and " + e.heads.length
                    + " children; at most 255 of each are stored");
        }
        out.writeByte(e.payloads.length);
        out.writeByte(e.heads.length);
        out.writeByte((e.listed ? LISTED : 0)
                | (e.listedThen ? LISTED_THEN : 0)
                | (e.dirty ? DIRTY : 0)
                | (e.then != null ? HAS_THEN : 0)
                | (e.headsThen != null ? CHANGELOG : 0));
        out.writeInt(e.present);
        out.writeInt(e.childEntries);
        out.writeInt(e.liveChildren);
        for (Object p : e.payloads) {
            writeSlot(p, payloads, out);
        }
        writeKeys(e.heads, tuples, out);
        writeKey(e.prev, tuples, out);
        writeKey(e.next, tuples, out);
        if (e.then != null) {
            for (Object p : e.then) {
                writeSlot(p, payloads, out);
            }
        }
        if (e.headsThen != null) {
            writeKeys(e.headsThen, tuples, out);
            writeKey(e.prevThen, tuples, out);
            writeKey(e.nextThen, tuples, out);
        }
    }

    /** Reads an entry that {@link #write} wrote. */
    public static <T> QTreeEntry<T> read(Io<T> payloads, Io<Tuple> tuples, DataInput in) throws IOException {
        int slots = in.readUnsignedByte();
        int children = in.readUnsignedByte();
        int flags = in.readUnsignedByte();
        QTreeEntry<T> e = new QTreeEntry<>(slots, children, (flags & CHANGELOG) != 0);
        e.listed = (flags & LISTED) != 0;
        e.listedThen = (flags & LISTED_THEN) != 0;
        e.dirty = (flags & DIRTY) != 0;
        e.present = in.readInt();
        e.childEntries = in.readInt();
        e.liveChildren = in.readInt();
        for (int s = 0; s < slots; s++) {
            e.payloads[s] = readSlot(payloads, in);
        }
        readKeys(e.heads, tuples, in);
        e.prev = readKey(tuples, in);
        e.next = readKey(tuples, in);
        if ((flags & HAS_THEN) != 0) {
            e.then = new Object[slots];
            for (int s = 0; s < slots; s++) {
                e.then[s] = readSlot(payloads, in);
            }
        }
        if (e.headsThen != null) {
            readKeys(e.headsThen, tuples, in);
            e.prevThen = readKey(tuples, in);
            e.nextThen = readKey(tuples, in);
        }
        return e;
    }

    @SuppressWarnings("unchecked") // slots hold payloads of the entry's semiring, or CLEAN
    private static <T> void writeSlot(Object p, Io<T> payloads, DataOutput out) throws IOException {
        if (p == QTreeEntry.CLEAN) {
            out.writeByte(CLEAN);
        } else if (p == null) {
            out.writeByte(ABSENT);
        } else {
            out.writeByte(PRESENT);
            payloads.write((T) p, out);
        }
    }

    private static <T> Object readSlot(Io<T> payloads, DataInput in) throws IOException {
        int tag = in.readUnsignedByte();
        return switch (tag) {
            case ABSENT -> null;
            case PRESENT -> payloads.read(in);
            case CLEAN -> QTreeEntry.CLEAN;
            default -> throw new IOException("corrupt q-tree entry: slot tag " + tag);
        };
    }

    private static void writeKeys(Tuple[] keys, Io<Tuple> tuples, DataOutput out) throws IOException {
        for (Tuple k : keys) {
            writeKey(k, tuples, out);
        }
    }

    private static void readKeys(Tuple[] keys, Io<Tuple> tuples, DataInput in) throws IOException {
        for (int i = 0; i < keys.length; i++) {
            keys[i] = readKey(tuples, in);
        }
    }

    private static void writeKey(Tuple k, Io<Tuple> tuples, DataOutput out) throws IOException {
        out.writeBoolean(k != null);
        if (k != null) {
            tuples.write(k, out);
        }
    }

    private static Tuple readKey(Io<Tuple> tuples, DataInput in) throws IOException {
        return in.readBoolean() ? tuples.read(in) : null;
    }
}
