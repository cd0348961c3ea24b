package io.flinkivm.flink.types;

import io.flinkivm.core.semiring.PayloadFormatException;
import io.flinkivm.core.semiring.Polynomial;
import java.io.IOException;
import org.apache.flink.annotation.Internal;
import org.apache.flink.api.common.typeutils.SimpleTypeSerializerSnapshot;
import org.apache.flink.api.common.typeutils.TypeSerializerSnapshot;
import org.apache.flink.api.common.typeutils.base.TypeSerializerSingleton;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputView;
import org.apache.flink.types.StringValue;

/**
 * Serializer for provenance {@link Polynomial}s. Format (version 1): the canonical text form
 * ({@link Polynomial#toString()}) in {@link StringValue} encoding, read back with
 * {@link Polynomial#parse}. {@code Polynomial} has no public way to rebuild it from its terms, so
 * the text form is the exact, if not the fastest, encoding; a structural format would be version 2.
 */
@Internal
public final class PolynomialSerializer extends TypeSerializerSingleton<Polynomial> {
    private static final long serialVersionUID = 1L;

    /** The only instance. */
    public static final PolynomialSerializer INSTANCE = new PolynomialSerializer();

    private PolynomialSerializer() {}

    @Override
    public boolean isImmutableType() {
        return true;
    }

    @Override
    public Polynomial createInstance() {
        return Polynomial.ZERO;
    }

    @Override
    public Polynomial copy(Polynomial from) {
        return from;
    }

    @Override
    public Polynomial copy(Polynomial from, Polynomial reuse) {
        return from;
    }

    @Override
    public int getLength() {
        return -1;
    }

    @Override
    public void serialize(Polynomial record, DataOutputView out) throws IOException {
        StringValue.writeString(record.toString(), out);
    }

    @Override
    public Polynomial deserialize(DataInputView in) throws IOException {
        String text = StringValue.readString(in);
        if (text == null) {
            throw new IOException("corrupt provenance data: null instead of a polynomial");
        }
        try {
            return Polynomial.parse(text);
        } catch (PayloadFormatException e) {
            throw new IOException("corrupt provenance data: " + e.getMessage(), e);
        }
    }

    @Override
    public Polynomial deserialize(Polynomial reuse, DataInputView in) throws IOException {
        return deserialize(in);
    }

    @Override
    public void copy(DataInputView source, DataOutputView target) throws IOException {
        StringValue.copyString(source, target);
    }

    @Override
    public TypeSerializerSnapshot<Polynomial> snapshotConfiguration() {
        return new PolynomialSerializerSnapshot();
    }

    /** Snapshot of the (configuration-free) {@link PolynomialSerializer}. */
    public static final class PolynomialSerializerSnapshot extends SimpleTypeSerializerSnapshot<Polynomial> {
        public PolynomialSerializerSnapshot() {
            super(() -> INSTANCE);
        }
    }
}
