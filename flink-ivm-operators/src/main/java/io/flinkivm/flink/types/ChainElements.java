package io.flinkivm.flink.types;

import io.flinkivm.core.semiring.Chain;
import io.flinkivm.core.semiring.ChainComponent;
import io.flinkivm.core.semiring.Component;
import io.flinkivm.core.semiring.LongComponent;
import java.io.IOException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputView;
import org.apache.flink.types.StringValue;

/**
 * The serialized forms of a product's components ({@link LongComponent}s and {@link ChainComponent}s, in a
 * serializer snapshot) and of the elements of a chain of objects (in a payload): a byte for ⊥, a value or
 * ⊤, then the value: a string as Flink's {@link StringValue} writes it, a decimal's unscaled digits as
 * their length and two's-complement bytes (the scale is the chain's), a timestamp as its seconds since
 * 1970-01-01T00:00 (zig-zag var-long) and its nanoseconds (var-int).
 */
final class ChainElements {
    private static final byte BOTTOM = 0;
    private static final byte VALUE = 1;
    private static final byte TOP = 2;

    private static final byte LONG_COMPONENT = 0;
    private static final byte CHAIN_COMPONENT = 1;

    private ChainElements() {}

    /** Writes an element of a chain of objects: its tag ({@link Chain#BOTTOM}, ...) and its object. */
    static void write(Chain chain, long tag, Object value, DataOutputView out) throws IOException {
        if (tag != Chain.VALUE) {
            out.writeByte(tag == Chain.BOTTOM ? BOTTOM : TOP);
            return;
        }
        out.writeByte(VALUE);
        switch (chain.kind()) {
            case STRING -> Strings.write((String) value, out);
            case BIG_DECIMAL -> {
                byte[] digits = ((BigDecimal) value).unscaledValue().toByteArray();
                VarInts.write(digits.length, out);
                out.write(digits);
            }
            case TIMESTAMP_NANOS -> {
                LocalDateTime t = (LocalDateTime) value;
                VarInts.writeSignedLong(t.toEpochSecond(ZoneOffset.UTC), out);
                VarInts.write(t.getNano(), out);
            }
            default -> throw new IllegalStateException("a chain of " + chain.kind() + " keeps no objects");
        }
    }

    /** Reads the tag of an element {@link #write} wrote; the object follows for {@link Chain#VALUE}. */
    static long readTag(DataInputView in) throws IOException {
        byte b = in.readByte();
        return switch (b) {
            case BOTTOM -> Chain.BOTTOM;
            case VALUE -> Chain.VALUE;
            case TOP -> Chain.TOP;
            default -> throw new IOException("corrupt chain element: tag byte " + b);
        };
    }

    /** Reads the object of an element whose tag is {@link Chain#VALUE}. */
    static Object readValue(Chain chain, DataInputView in) throws IOException {
        return switch (chain.kind()) {
            case STRING -> Strings.read(in);
            case BIG_DECIMAL -> {
                int n = VarInts.read(in);
                if (n <= 0 || n > 1 << 16) {
                    throw new IOException("corrupt decimal: " + n + " bytes of digits");
                }
                byte[] digits = new byte[n];
                in.readFully(digits);
                yield new BigDecimal(new BigInteger(digits), chain.scale());
            }
            case TIMESTAMP_NANOS -> {
                long seconds = VarInts.readSignedLong(in);
                int nanos = VarInts.read(in);
                try {
                    yield LocalDateTime.ofEpochSecond(seconds, nanos, ZoneOffset.UTC);
                } catch (java.time.DateTimeException e) {
                    throw new IOException("corrupt timestamp: " + seconds + " s and " + nanos + " ns", e);
                }
            }
            default -> throw new IOException("a chain of " + chain.kind() + " keeps no objects");
        };
    }

    /** Writes a product's components after the count, each its kind and what defines it. */
    static void writeComponents(List<Component> components, DataOutputView out) throws IOException {
        out.writeInt(components.size() - 1);
        for (Component c : components.subList(1, components.size())) {
            if (c instanceof ChainComponent chain) {
                out.writeByte(CHAIN_COMPONENT);
                out.writeBoolean(chain.isMin());
                out.writeUTF(chain.chain().kind().name());
                out.writeInt(chain.chain().scale());
                out.writeUTF(chain.chain().name());
            } else {
                out.writeByte(LONG_COMPONENT);
                out.writeUTF(c.label());
            }
        }
    }

    /** Reads what {@link #writeComponents} wrote; with {@code labelsOnly}, the earlier form of labels alone. */
    static List<Component> readComponents(DataInputView in, boolean labelsOnly) throws IOException {
        int n = in.readInt();
        List<Component> components = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            byte kind = labelsOnly ? LONG_COMPONENT : in.readByte();
            if (kind == LONG_COMPONENT) {
                String label = in.readUTF();
                LongComponent c = LongComponent.byLabel(label);
                if (c == null) {
                    throw new IOException("unknown product component '" + label + "' in a serializer snapshot");
                }
                components.add(c);
            } else if (kind == CHAIN_COMPONENT) {
                boolean min = in.readBoolean();
                String chainKind = in.readUTF();
                int scale = in.readInt();
                String name = in.readUTF();
                Chain chain;
                try {
                    chain = new Chain(Chain.Kind.valueOf(chainKind), scale, name);
                } catch (IllegalArgumentException e) {
                    throw new IOException(
                            "unknown chain " + chainKind + " (scale " + scale + ") of " + name
                                    + " in a serializer snapshot",
                            e);
                }
                components.add(min ? ChainComponent.min(chain) : ChainComponent.max(chain));
            } else {
                throw new IOException("unknown kind " + kind + " of a product component in a serializer snapshot");
            }
        }
        return components;
    }
}
