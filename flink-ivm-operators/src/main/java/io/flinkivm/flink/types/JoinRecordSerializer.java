package io.flinkivm.flink.types;

import io.flinkivm.core.engine.join.JoinRecord;
import io.flinkivm.core.query.Tuple;
import io.flinkivm.core.semiring.InPlaceSum;
import java.io.IOException;
import java.util.Objects;
import org.apache.flink.annotation.Internal;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.api.common.typeutils.TypeSerializerSnapshot;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputView;

/**
 * Serializer for a {@link JoinRecord}. Format (version 4, of tuple format 5; 2 kept links whole in keyed state, 1 was
 * before the compact state layout): one
 * flags byte (payload, next live tuple, in join, old payload present; waiting; in-join links; the
 * dirty mark in its two high bits), then the present fields: the payload, the next live tuple, for a
 * waiting tuple the missing count (var-int) and its waiting links, the in-join links (links: a var-int
 * length, a presence bit mask, the present tuples), the old payload. A live, clean record of a root
 * view is its payload and one byte. In managed keyed state ({@code FlinkJoinRecordStore}) a link is written as the store hands it over:
 * without the values of the list's key, which are the record's own (see {@code RelativeLinks}). With a
 * payload serializer that reads and writes payloads as longs ({@link InPlacePayloadSerializer}), a record
 * keeps its payload as longs ({@link JoinRecord#setLongs}) from state to state, in the same bytes: an
 * update read from RocksDB, added to in place and written back makes no payload object.
 */
@Internal
public final class JoinRecordSerializer<T> extends TypeSerializer<JoinRecord<T>> {
    private static final long serialVersionUID = 1L;
    private static final int PAYLOAD = 1;
    private static final int LIVE_NEXT = 2;
    private static final int IN_JOIN = 4;
    private static final int OLD_PAYLOAD = 8;
    /** A waiting tuple: the missing count and the waiting links follow. */
    private static final int WAITING = 16;
    /** The in-join links follow. */
    private static final int UP_LINKS = 32;
    /** The dirty mark ({@link JoinRecord#CLEAN}, {@code CHANGED} or {@code NEW}) in the two high bits. */
    private static final int DIRTY_SHIFT = 6;

    private static final Tuple[] NONE = new Tuple[0];

    private final TypeSerializer<T> payloadSerializer;
    /** The payload serializer, if it reads and writes payloads as longs; else null. */
    private final InPlacePayloadSerializer<T> longsSerializer;
    /** The sum in place of the records read with {@link #longsSerializer}; else null. */
    private final InPlaceSum<T> inPlace;

    @SuppressWarnings("unchecked") // an InPlacePayloadSerializer of T's is one of its payloads' serializer
    public JoinRecordSerializer(TypeSerializer<T> payloadSerializer) {
        this.payloadSerializer = Objects.requireNonNull(payloadSerializer, "payloadSerializer");
        InPlaceSum<T> sum = payloadSerializer instanceof InPlacePayloadSerializer<?> s
                ? ((InPlacePayloadSerializer<T>) s).inPlaceSum()
                : null;
        this.inPlace = sum;
        this.longsSerializer = sum == null ? null : (InPlacePayloadSerializer<T>) payloadSerializer;
    }

    @Override
    public boolean isImmutableType() {
        return false;
    }

    @Override
    public TypeSerializer<JoinRecord<T>> duplicate() {
        TypeSerializer<T> d = payloadSerializer.duplicate();
        return d == payloadSerializer ? this : new JoinRecordSerializer<>(d);
    }

    @Override
    public JoinRecord<T> createInstance() {
        return new JoinRecord<>();
    }

    @Override
    public JoinRecord<T> copy(JoinRecord<T> from) {
        JoinRecord<T> out;
        if (from.longs() != null && inPlace != null) {
            out = new JoinRecord<>();
            out.setLongs(inPlace, from.longs().clone());
        } else {
            T payload = from.payload();
            out = new JoinRecord<>(payload == null ? null : payloadSerializer.copy(payload));
        }
        out.missing = from.missing;
        out.liveNext = from.liveNext;
        out.waitNext = from.waitNext.length == 0 ? NONE : from.waitNext.clone();
        out.inJoin = from.inJoin;
        out.upNext = from.upNext.length == 0 ? NONE : from.upNext.clone();
        out.dirty = from.dirty;
        out.oldPayload = from.oldPayload == null ? null : payloadSerializer.copy(from.oldPayload);
        return out;
    }

    @Override
    public JoinRecord<T> copy(JoinRecord<T> from, JoinRecord<T> reuse) {
        return copy(from);
    }

    @Override
    public int getLength() {
        return -1;
    }

    @Override
    public void serialize(JoinRecord<T> r, DataOutputView out) throws IOException {
        boolean waiting = r.missing != 0 || r.waitNext.length > 0;
        if (r.dirty < 0 || r.dirty > 3) {
            throw new IllegalArgumentException("not a dirty mark: " + r.dirty);
        }
        long[] longs = longsSerializer == null ? null : r.longs();
        T payload = longs == null ? r.payload() : null;
        int flags = (payload != null || longs != null ? PAYLOAD : 0)
                | (r.liveNext != null ? LIVE_NEXT : 0)
                | (r.inJoin ? IN_JOIN : 0)
                | (r.oldPayload != null ? OLD_PAYLOAD : 0)
                | (waiting ? WAITING : 0)
                | (r.upNext.length > 0 ? UP_LINKS : 0)
                | r.dirty << DIRTY_SHIFT;
        out.writeByte(flags);
        if (longs != null) {
            longsSerializer.serializeLongs(longs, out);
        } else if (payload != null) {
            payloadSerializer.serialize(payload, out);
        }
        if (r.liveNext != null) {
            TupleSerializer.INSTANCE.serialize(r.liveNext, out);
        }
        if (waiting) {
            VarInts.write(r.missing, out);
            writeLinks(r.waitNext, out);
        }
        if (r.upNext.length > 0) {
            writeLinks(r.upNext, out);
        }
        if (r.oldPayload != null) {
            payloadSerializer.serialize(r.oldPayload, out);
        }
    }

    private static void writeLinks(Tuple[] links, DataOutputView out) throws IOException {
        VarInts.write(links.length, out);
        for (int base = 0; base < links.length; base += 8) {
            int mask = 0;
            for (int i = base; i < Math.min(base + 8, links.length); i++) {
                if (links[i] != null) {
                    mask |= 1 << (i - base);
                }
            }
            out.writeByte(mask);
        }
        for (Tuple t : links) {
            if (t != null) {
                TupleSerializer.INSTANCE.serialize(t, out);
            }
        }
    }

    @Override
    public JoinRecord<T> deserialize(DataInputView in) throws IOException {
        int flags = in.readUnsignedByte();
        JoinRecord<T> r = new JoinRecord<>();
        r.dirty = (byte) (flags >>> DIRTY_SHIFT);
        if ((flags & PAYLOAD) != 0) {
            if (inPlace != null) {
                r.setLongs(inPlace, longsSerializer.deserializeLongs(in));
            } else {
                r.setPayload(payloadSerializer.deserialize(in));
            }
        }
        if ((flags & LIVE_NEXT) != 0) {
            r.liveNext = TupleSerializer.INSTANCE.deserialize(in);
        }
        r.inJoin = (flags & IN_JOIN) != 0;
        if ((flags & WAITING) != 0) {
            r.missing = VarInts.read(in);
            r.waitNext = readLinks(in);
        }
        if ((flags & UP_LINKS) != 0) {
            r.upNext = readLinks(in);
        }
        if ((flags & OLD_PAYLOAD) != 0) {
            r.oldPayload = payloadSerializer.deserialize(in);
        }
        return r;
    }

    private static Tuple[] readLinks(DataInputView in) throws IOException {
        int length = VarInts.read(in);
        if (length == 0) {
            return NONE;
        }
        boolean[] present = new boolean[length];
        for (int base = 0; base < length; base += 8) {
            int mask = in.readUnsignedByte();
            for (int i = base; i < Math.min(base + 8, length); i++) {
                present[i] = (mask & (1 << (i - base))) != 0;
            }
        }
        Tuple[] out = new Tuple[length];
        for (int i = 0; i < length; i++) {
            if (present[i]) {
                out[i] = TupleSerializer.INSTANCE.deserialize(in);
            }
        }
        return out;
    }

    @Override
    public JoinRecord<T> deserialize(JoinRecord<T> reuse, DataInputView source) throws IOException {
        return deserialize(source);
    }

    @Override
    public void copy(DataInputView source, DataOutputView target) throws IOException {
        serialize(deserialize(source), target);
    }

    @Override
    public boolean equals(Object obj) {
        return obj instanceof JoinRecordSerializer<?> other && payloadSerializer.equals(other.payloadSerializer);
    }

    @Override
    public int hashCode() {
        return 31 * JoinRecordSerializer.class.getName().hashCode() + payloadSerializer.hashCode();
    }

    @Override
    public TypeSerializerSnapshot<JoinRecord<T>> snapshotConfiguration() {
        return new JoinRecordSerializerSnapshot<>(this);
    }

    /** Snapshot of a {@link JoinRecordSerializer}: the nested payload serializer's snapshot. */
    public static final class JoinRecordSerializerSnapshot<T>
            extends FormatCompositeSnapshot<JoinRecord<T>, JoinRecordSerializer<T>> {
        /**
         * 4 since its tuples are of tuple format 5 ({@link TupleSerializer#TYPED_VALUES}); 3 since links in keyed
         * state leave out the values they share with their record's tuple (2 before).
         */
        private static final int VERSION = 4;

        /** For reading a snapshot. */
        public JoinRecordSerializerSnapshot() {}

        JoinRecordSerializerSnapshot(JoinRecordSerializer<T> serializer) {
            super(serializer);
        }

        @Override
        protected String what() {
            return "join record";
        }

        @Override
        protected int format() {
            return VERSION;
        }

        @Override
        protected String change() {
            return TupleSerializer.TYPED_VALUES;
        }

        @Override
        protected TypeSerializer<?>[] getNestedSerializers(JoinRecordSerializer<T> outer) {
            return new TypeSerializer<?>[] {outer.payloadSerializer};
        }

        @Override
        @SuppressWarnings("unchecked") // the nested serializers are the ones getNestedSerializers returned
        protected JoinRecordSerializer<T> create(TypeSerializer<?>[] nested) {
            return new JoinRecordSerializer<>((TypeSerializer<T>) nested[0]);
        }
    }
}
