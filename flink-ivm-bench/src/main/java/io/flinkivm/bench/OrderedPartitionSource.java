package io.flinkivm.bench;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.connector.source.Boundedness;
import org.apache.flink.api.connector.source.Source;
import org.apache.flink.api.connector.source.SourceReader;
import org.apache.flink.api.connector.source.SourceReaderContext;
import org.apache.flink.api.connector.source.SplitEnumerator;
import org.apache.flink.api.connector.source.SplitEnumeratorContext;
import org.apache.flink.api.connector.source.lib.util.IteratorSourceEnumerator;
import org.apache.flink.api.connector.source.lib.util.IteratorSourceReader;
import org.apache.flink.api.connector.source.lib.util.IteratorSourceSplit;
import org.apache.flink.api.java.typeutils.ResultTypeQueryable;
import org.apache.flink.core.io.SimpleVersionedSerializer;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputSerializer;
import org.apache.flink.core.memory.DataOutputView;

/**
 * A registered list ({@link IndexedInput}) cut into consecutive partitions, each read from start to end
 * by one reader: a bounded source whose split k is partition k's range of the list, its checkpointed
 * state the position reached. A reader asks for a partition when it starts and for another when it has
 * read one (Flink's {@link IteratorSourceEnumerator}), so the subtask that reads a partition reads all
 * of it, in the list's order. An empty partition has no split. The list stays in this JVM; the source
 * carries only its id and the partitions' bounds.
 */
final class OrderedPartitionSource<T>
        implements Source<T, OrderedPartitionSource.Part<T>, Collection<OrderedPartitionSource.Part<T>>>,
                ResultTypeQueryable<T> {
    private static final long serialVersionUID = 1L;

    private final long input;
    private final int[] bounds;
    private final TypeInformation<T> type;

    /**
     * @param input the id of a registered list
     * @param bounds partition k is the list's indices {@code bounds[k] .. bounds[k + 1] - 1}
     */
    OrderedPartitionSource(long input, int[] bounds, TypeInformation<T> type) {
        this.input = input;
        this.bounds = bounds.clone();
        this.type = type;
    }

    @Override
    public Boundedness getBoundedness() {
        return Boundedness.BOUNDED;
    }

    @Override
    public TypeInformation<T> getProducedType() {
        return type;
    }

    @Override
    public SourceReader<T, Part<T>> createReader(SourceReaderContext context) {
        return new IteratorSourceReader<>(context);
    }

    @Override
    public SplitEnumerator<Part<T>, Collection<Part<T>>> createEnumerator(SplitEnumeratorContext<Part<T>> context) {
        List<Part<T>> parts = new ArrayList<>(bounds.length - 1);
        for (int k = 0; k + 1 < bounds.length; k++) {
            // Flink's reader takes a record from a split as soon as it has it: an empty one would fail.
            if (bounds[k] < bounds[k + 1]) {
                parts.add(new Part<>(input, k, bounds[k], bounds[k + 1]));
            }
        }
        return new IteratorSourceEnumerator<>(context, parts);
    }

    @Override
    public SplitEnumerator<Part<T>, Collection<Part<T>>> restoreEnumerator(
            SplitEnumeratorContext<Part<T>> context, Collection<Part<T>> unassigned) {
        return new IteratorSourceEnumerator<>(context, unassigned);
    }

    @Override
    public SimpleVersionedSerializer<Part<T>> getSplitSerializer() {
        return new PartSerializer<>();
    }

    @Override
    public SimpleVersionedSerializer<Collection<Part<T>>> getEnumeratorCheckpointSerializer() {
        return new PartsSerializer<>();
    }

    /** Partition {@code partition} of registered list {@code input}, from {@code position} (inclusive) to {@code end}. */
    record Part<T>(long input, int partition, int position, int end) implements IteratorSourceSplit<T, Cursor<T>> {
        @Override
        public String splitId() {
            return Integer.toString(partition);
        }

        @Override
        public Cursor<T> getIterator() {
            return new Cursor<>(IndexedInput.items(input), position, end);
        }

        @Override
        public Part<T> getUpdatedSplitForIterator(Cursor<T> cursor) {
            return new Part<>(input, partition, cursor.position, end);
        }

        void writeTo(DataOutputView out) throws IOException {
            out.writeLong(input);
            out.writeInt(partition);
            out.writeInt(position);
            out.writeInt(end);
        }

        static <T> Part<T> readFrom(DataInputView in) throws IOException {
            return new Part<>(in.readLong(), in.readInt(), in.readInt(), in.readInt());
        }
    }

    /** The list's elements from a position to an end, in order; it knows its position (for checkpoints). */
    static final class Cursor<T> implements Iterator<T> {
        private final List<T> items;
        private final int end;
        private int position;

        Cursor(List<T> items, int position, int end) {
            this.items = items;
            this.position = position;
            this.end = end;
        }

        @Override
        public boolean hasNext() {
            return position < end;
        }

        @Override
        public T next() {
            if (position >= end) {
                throw new NoSuchElementException("partition read to its end " + end);
            }
            return items.get(position++);
        }
    }

    private static final int VERSION = 1;

    private static void checkVersion(int version) throws IOException {
        if (version != VERSION) {
            throw new IOException(
                    "unknown version " + version + " of the bench's partition splits (this is " + VERSION + ")");
        }
    }

    /** A split: its input, partition, position and end. */
    static final class PartSerializer<T> implements SimpleVersionedSerializer<Part<T>> {
        @Override
        public int getVersion() {
            return VERSION;
        }

        @Override
        public byte[] serialize(Part<T> part) throws IOException {
            DataOutputSerializer out = new DataOutputSerializer(20);
            part.writeTo(out);
            return out.getCopyOfBuffer();
        }

        @Override
        public Part<T> deserialize(int version, byte[] serialized) throws IOException {
            checkVersion(version);
            return Part.readFrom(new DataInputDeserializer(serialized));
        }
    }

    /** The enumerator's unassigned splits: their number, then each. */
    static final class PartsSerializer<T> implements SimpleVersionedSerializer<Collection<Part<T>>> {
        @Override
        public int getVersion() {
            return VERSION;
        }

        @Override
        public byte[] serialize(Collection<Part<T>> parts) throws IOException {
            DataOutputSerializer out = new DataOutputSerializer(4 + 20 * parts.size());
            out.writeInt(parts.size());
            for (Part<T> p : parts) {
                p.writeTo(out);
            }
            return out.getCopyOfBuffer();
        }

        @Override
        public Collection<Part<T>> deserialize(int version, byte[] serialized) throws IOException {
            checkVersion(version);
            DataInputDeserializer in = new DataInputDeserializer(serialized);
            int n = in.readInt();
            List<Part<T>> parts = new ArrayList<>(n);
            for (int i = 0; i < n; i++) {
                parts.add(Part.readFrom(in));
            }
            return parts;
        }
    }
}
