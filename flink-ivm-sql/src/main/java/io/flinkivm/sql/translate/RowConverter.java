package io.flinkivm.sql.translate;

import io.flinkivm.core.query.Tuple;
import io.flinkivm.core.semiring.Chain;
import io.flinkivm.core.semiring.ChainComponent;
import io.flinkivm.core.semiring.LongComponent;
import java.math.BigDecimal;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.flink.annotation.Internal;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.data.binary.BinaryStringData;

/**
 * One table's rows as Flink gives them ({@link RowData} of the table's input columns, in order) to the
 * inserts {@link TableInput#inserts} makes of them, compiled once per table. A column is read with its
 * typed getter into its tuple value ({@link TupleCodec}): an integer, a DECIMAL of at most 18 digits as
 * its unscaled {@code long}, a DATE or TIME as Flink's {@code int}, a TIMESTAMP as a {@code long}.
 * Payloads are computed in overflow-checked {@code long} arithmetic on the unscaled values (a SUM of
 * {@code l_extendedprice * (1 - l_discount)} is two multiplications and a subtraction); comparisons of
 * numbers, dates and strings with each other, AND, OR, NOT, IS [NOT] NULL and IN lists of integers or
 * strings are compiled too. Everything else (other functions, doubles in payloads, decimals beyond 18
 * digits, a multiplication whose intermediate value leaves 64 bits) is evaluated on the row's values
 * by the expressions themselves, as {@link TableInput#inserts} does: the same result, slower. Not
 * thread-safe: one per operator subtask.
 */
@Internal
public final class RowConverter {

    /** Where the inserts of a row go. */
    @FunctionalInterface
    public interface Inserts {
        /** An insert of {@code tuple} with {@code payload} into the table's {@code relation}-th relation. */
        void insert(int relation, Tuple tuple, Object payload);
    }

    /** 10^i for i = 0 .. 18. */
    private static final long[] POW10 = new long[TupleCodec.LONG_DIGITS + 1];

    static {
        POW10[0] = 1;
        for (int i = 1; i < POW10.length; i++) {
            POW10[i] = POW10[i - 1] * 10;
        }
    }

    /** Thrown where the compiled path cannot give the exact result (an intermediate overflow): the row is evaluated slowly. */
    private static final class Slow extends RuntimeException {
        private static final long serialVersionUID = 1L;

        Slow() {
            super("evaluate on the row's values", null, false, false);
        }
    }

    private static final Slow SLOW = new Slow();

    private final TableInput table;
    /** Per column of the table: its position among the input columns, or -1. */
    private final int[] positions;

    private final Relation[] relations;
    /** The expressions evaluated on the row's values, not compiled. */
    private final List<String> slowParts = new ArrayList<>();

    private final Tuple[] tuples;
    private final Object[] payloads;

    /** The row being converted. */
    private RowData row;
    /** Its values in {@link SqlValues}' domain, one per column of the table, once an expression asked. */
    private Object[] values;
    /** Set by an {@link Exact} that found a NULL. */
    private boolean isNull;

    private RowConverter(TableInput table) {
        this.table = table;
        this.positions = new int[table.width()];
        Arrays.fill(positions, -1);
        for (int i = 0; i < table.inputCount(); i++) {
            positions[table.inputColumn(i)] = i;
        }
        List<TableInput.RelationInput> inputs = table.relationInputs();
        this.relations = new Relation[inputs.size()];
        for (int r = 0; r < relations.length; r++) {
            relations[r] = new Relation(inputs.get(r));
        }
        this.tuples = new Tuple[relations.length];
        this.payloads = new Object[relations.length];
    }

    /** The converter of {@code table}'s rows. */
    public static RowConverter of(TableInput table) {
        return new RowConverter(table);
    }

    /**
     * Passes the inserts of {@code row} to {@code out}, one per relation whose filter it passes (none if
     * it passes none), all or nothing; returns how many.
     *
     * @throws RejectedRowException if the row cannot make its inserts (the wrong number of values, NULL in
     *     a primary key, a payload beyond 64 bits, a division by zero, ...); nothing was passed then
     */
    public int convert(RowData row, Inserts out) throws RejectedRowException {
        if (row.getArity() != table.inputCount()) {
            throw new RejectedRowException(
                    "expected " + table.inputCount() + " values (" + table.inputColumns() + "), got " + row.getArity());
        }
        this.row = row;
        this.values = null;
        int n = 0;
        try {
            for (int r = 0; r < relations.length; r++) {
                if (relations[r].convert(this, r)) {
                    n++;
                } else {
                    tuples[r] = null;
                }
            }
        } catch (Slow slow) {
            return slowly(out);
        } catch (ArithmeticException e) {
            throw new RejectedRowException(e.getMessage());
        }
        for (int r = 0; r < relations.length; r++) {
            if (tuples[r] != null) {
                out.insert(r, tuples[r], payloads[r]);
                tuples[r] = null;
                payloads[r] = null;
            }
        }
        return n;
    }

    /** The inserts of the current row as the expressions make them on its values. */
    private int slowly(Inserts out) throws RejectedRowException {
        List<TableInput.Insert> inserts = table.inserts(values());
        List<String> names = table.relations();
        for (TableInput.Insert insert : inserts) {
            out.insert(names.indexOf(insert.relation()), insert.tuple(), insert.payload());
        }
        Arrays.fill(tuples, null);
        Arrays.fill(payloads, null);
        return inserts.size();
    }

    /** The current row's values in {@link SqlValues}' domain, as {@link TableInput#fromValues} makes them. */
    private Object[] values() {
        if (values == null) {
            Object[] v = new Object[table.width()];
            for (int i = 0; i < table.inputCount(); i++) {
                if (!row.isNullAt(i)) {
                    v[table.inputColumn(i)] = value(row, i, table.inputType(i));
                }
            }
            values = v;
        }
        return values;
    }

    /**
     * The value at {@code i} of a row whose column there has {@code type}, in {@link SqlValues}' domain
     * (Long for the integers, BigDecimal, Double, String, Boolean, LocalDate, LocalTime, LocalDateTime);
     * the field must not be NULL.
     */
    public static Object value(RowData row, int i, SqlType type) {
        return switch (type.kind()) {
            case TINYINT -> (long) row.getByte(i);
            case SMALLINT -> (long) row.getShort(i);
            case INT -> (long) row.getInt(i);
            case BIGINT -> row.getLong(i);
            case DECIMAL -> row.getDecimal(i, type.precision(), type.scale()).toBigDecimal();
            case FLOAT -> (double) row.getFloat(i);
            case DOUBLE -> row.getDouble(i);
            case STRING -> row.getString(i).toString();
            case BOOLEAN -> row.getBoolean(i);
            case DATE -> LocalDate.ofEpochDay(row.getInt(i));
            case TIME -> LocalTime.ofNanoOfDay(row.getInt(i) * 1_000_000L);
            case TIMESTAMP -> row.getTimestamp(i, type.precision()).toLocalDateTime();
            case UNSUPPORTED -> throw new IllegalArgumentException("values of type " + type + " are not supported");
        };
    }

    // ---- one relation ----

    /** One relation of the table: its filter, the slots of its tuple, the factors of its payload. */
    private final class Relation {
        final TableInput.RelationInput input;
        /** The filter, compiled; null for none. */
        final Pred filter;
        /** The filter where it is not compiled (evaluated on the row's values), else null. */
        final RowExpr slowFilter;

        final Slot[] slots;
        /** Per factor of a product payload; null for the semiring's one. */
        final FactorNode[] factors;

        Relation(TableInput.RelationInput input) {
            this.input = input;
            Pred f = input.filter() == null ? null : pred(input.filter());
            this.filter = f;
            this.slowFilter = f == null ? input.filter() : null;
            if (slowFilter != null) {
                slowParts.add(slowFilter.text());
            }
            List<RowExpr> layout = input.layout();
            this.slots = new Slot[layout.size()];
            for (int i = 0; i < slots.length; i++) {
                slots[i] = slot(layout.get(i), input.codecs().get(i));
            }
            if (input.product() == null) {
                this.factors = null;
            } else {
                this.factors = new FactorNode[input.factors().size()];
                for (int i = 0; i < factors.length; i++) {
                    factors[i] = factor(input.factors().get(i));
                }
            }
        }

        /** Makes the row's insert into {@code tuples[r]} and {@code payloads[r]}; false if it makes none. */
        boolean convert(RowConverter c, int r) throws RejectedRowException {
            if (filter != null ? filter.test(c) != TRUE : slowFilter != null && !slowFilter.isTrue(c.values())) {
                return false;
            }
            Object[] tuple = new Object[slots.length];
            for (int i = 0; i < tuple.length; i++) {
                Object v = slots[i].read(c);
                if (v == null) {
                    if (input.joins()[i]) {
                        return false;
                    }
                    if (input.keys()[i]) {
                        throw new RejectedRowException("NULL in "
                                + input.layout().get(i).text() + ", a column of the primary key of " + table.name());
                    }
                    v = SqlType.NULL_TUPLE_VALUE;
                }
                tuple[i] = v;
            }
            c.tuples[r] = Tuple.wrap(tuple);
            if (factors == null) {
                c.payloads[r] = input.one();
            } else {
                long[] components = new long[factors.length + 1];
                Object[] objects = input.product().hasObjects() ? new Object[components.length] : null;
                components[0] = 1;
                for (int i = 0; i < factors.length; i++) {
                    factors[i].apply(c, components, objects, i + 1);
                }
                c.payloads[r] = input.product().payload(components, objects);
            }
            return true;
        }
    }

    // ---- tuple values ----

    /** A layout value of the row as a tuple value; null for NULL. */
    private abstract static class Slot {
        abstract Object read(RowConverter c) throws RejectedRowException;
    }

    /** A layout value the expression computes on the row's values. */
    private static final class SlowSlot extends Slot {
        final RowExpr expr;
        final TupleCodec codec;

        SlowSlot(RowExpr expr, TupleCodec codec) {
            this.expr = expr;
            this.codec = codec;
        }

        @Override
        Object read(RowConverter c) throws RejectedRowException {
            Object v = expr.eval(c.values());
            if (v == null) {
                return null;
            }
            try {
                return codec.encode(v, expr.type());
            } catch (IllegalArgumentException e) {
                throw new RejectedRowException(expr.text() + ": " + e.getMessage());
            }
        }
    }

    private static final int BYTE = 0;
    private static final int SHORT = 1;
    private static final int INT = 2;
    private static final int LONG = 3;
    private static final int DECIMAL = 4;
    private static final int FLOAT = 5;
    private static final int DOUBLE = 6;
    private static final int STRING = 7;
    private static final int BOOLEAN = 8;
    private static final int TIMESTAMP_MICROS = 9;
    private static final int TIMESTAMP_NANOS = 10;

    /** A column read with its typed getter as its variable's tuple value. */
    private static final class ColumnSlot extends Slot {
        final int position;
        final int how;
        final SqlType type;
        final String name;
        /** DECIMAL: the factor from the column's scale to the codec's. */
        final long rescale;

        ColumnSlot(int position, int how, SqlType type, String name, long rescale) {
            this.position = position;
            this.how = how;
            this.type = type;
            this.name = name;
            this.rescale = rescale;
        }

        @Override
        Object read(RowConverter c) throws RejectedRowException {
            RowData row = c.row;
            if (row.isNullAt(position)) {
                return null;
            }
            return switch (how) {
                case BYTE -> (long) row.getByte(position);
                case SHORT -> (long) row.getShort(position);
                case INT -> (long) row.getInt(position);
                case LONG -> row.getLong(position);
                case DECIMAL ->
                    row.getDecimal(position, type.precision(), type.scale()).toUnscaledLong() * rescale;
                case FLOAT -> finite(row.getFloat(position));
                case DOUBLE -> finite(row.getDouble(position));
                case STRING -> row.getString(position).toString();
                case BOOLEAN -> row.getBoolean(position);
                case TIMESTAMP_MICROS -> micros(row.getTimestamp(position, type.precision()));
                case TIMESTAMP_NANOS -> nanos(row.getTimestamp(position, type.precision()));
                default -> throw new IllegalStateException("column slot " + how);
            };
        }

        private Double finite(double v) throws RejectedRowException {
            if (!Double.isFinite(v)) {
                throw new RejectedRowException(name + ": " + v + " is not a finite number");
            }
            return v == 0.0 ? 0.0 : v; // -0.0 joins with 0.0
        }

        private Long micros(TimestampData t) throws RejectedRowException {
            int nanos = t.getNanoOfMillisecond();
            if (nanos % 1000 != 0) {
                throw new RejectedRowException(name + ": " + t + " has more than 6 digits of a second");
            }
            return t.getMillisecond() * 1000 + nanos / 1000;
        }

        private Long nanos(TimestampData t) throws RejectedRowException {
            try {
                return Math.addExact(Math.multiplyExact(t.getMillisecond(), 1_000_000L), t.getNanoOfMillisecond());
            } catch (ArithmeticException e) {
                throw new RejectedRowException(name + ": " + t
                        + " is outside the TIMESTAMP(9) range flink-ivm holds (the years 1677 to 2262)");
            }
        }
    }

    private Slot slot(RowExpr e, TupleCodec codec) {
        if (!(e instanceof RowExpr.Column column) || positions[column.index()] < 0) {
            return slowSlot(e, codec);
        }
        int position = positions[column.index()];
        SqlType type = column.type();
        int how = switch (codec.form()) {
            case INTEGER ->
                switch (type.kind()) {
                    case TINYINT -> BYTE;
                    case SMALLINT -> SHORT;
                    case INT -> INT;
                    default -> LONG;
                };
            case DECIMAL_UNITS -> DECIMAL;
            case FLOATING -> type.kind() == SqlType.Kind.FLOAT ? FLOAT : DOUBLE;
            case STRING -> STRING;
            case BOOLEAN -> BOOLEAN;
            case DATE, TIME -> INT;
            case TIMESTAMP -> codec.scale() == 6 ? TIMESTAMP_MICROS : TIMESTAMP_NANOS;
            case DECIMAL_TEXT -> -1;
        };
        if (how < 0) {
            return slowSlot(e, codec);
        }
        long rescale = how == DECIMAL ? POW10[codec.scale() - type.scale()] : 1;
        return new ColumnSlot(position, how, type, column.text(), rescale);
    }

    private Slot slowSlot(RowExpr e, TupleCodec codec) {
        slowParts.add(e.text());
        return new SlowSlot(e, codec);
    }

    /** The parts of the table's relations (filters, values, payload factors) evaluated on the row's values, as SQL. */
    List<String> slowParts() {
        return List.copyOf(slowParts);
    }

    // ---- exact values: numbers, dates, times and timestamps as longs ----

    /** The value families an {@link Exact} has: values compare only within one. */
    private enum Family {
        NUMBER,
        DATE,
        TIME,
        TIMESTAMP
    }

    /** An exact value of the row as a {@code long} in units of 10^-scale; sets {@link #isNull} for NULL. */
    private abstract static class Exact {
        final int scale;
        final Family family;

        Exact(int scale, Family family) {
            this.scale = scale;
            this.family = family;
        }

        /** The value; on NULL, sets {@code c.isNull} and returns anything. */
        abstract long get(RowConverter c);
    }

    private static final class ExactColumn extends Exact {
        final int position;
        final int how;
        final int precision;

        ExactColumn(int position, int how, int precision, int scale, Family family) {
            super(scale, family);
            this.position = position;
            this.how = how;
            this.precision = precision;
        }

        @Override
        long get(RowConverter c) {
            RowData row = c.row;
            if (row.isNullAt(position)) {
                c.isNull = true;
                return 0;
            }
            return switch (how) {
                case BYTE -> row.getByte(position);
                case SHORT -> row.getShort(position);
                case INT -> row.getInt(position);
                case LONG -> row.getLong(position);
                case DECIMAL -> row.getDecimal(position, precision, scale).toUnscaledLong();
                case TIMESTAMP_MICROS -> {
                    TimestampData t = row.getTimestamp(position, precision);
                    yield t.getMillisecond() * 1000 + t.getNanoOfMillisecond() / 1000;
                }
                default -> throw new IllegalStateException("exact column " + how);
            };
        }
    }

    private static final class ExactConstant extends Exact {
        final long value;

        ExactConstant(long value, int scale, Family family) {
            super(scale, family);
            this.value = value;
        }

        @Override
        long get(RowConverter c) {
            return value;
        }
    }

    /** {@code a op b} for op in {@code + - *}, rounded half up to the result type's scale as Flink does. */
    private static final class ExactArithmetic extends Exact {
        final char op;
        final Exact a;
        final Exact b;
        /** The factors that align a and b to their common scale ({@code + -}). */
        final long alignA;

        final long alignB;
        /** The digits the exact result has beyond {@link #scale}, rounded away. */
        final long roundBy;

        ExactArithmetic(char op, Exact a, Exact b, int natural, int scale) {
            super(scale, Family.NUMBER);
            this.op = op;
            this.a = a;
            this.b = b;
            this.alignA = op == '*' ? 1 : POW10[natural - a.scale];
            this.alignB = op == '*' ? 1 : POW10[natural - b.scale];
            this.roundBy = POW10[natural - scale];
        }

        @Override
        long get(RowConverter c) {
            long x = a.get(c);
            if (c.isNull) {
                return 0;
            }
            long y = b.get(c);
            if (c.isNull) {
                return 0;
            }
            try {
                long r = switch (op) {
                    case '+' -> Math.addExact(Math.multiplyExact(x, alignA), Math.multiplyExact(y, alignB));
                    case '-' -> Math.subtractExact(Math.multiplyExact(x, alignA), Math.multiplyExact(y, alignB));
                    default -> Math.multiplyExact(x, y);
                };
                return roundBy == 1 ? r : roundHalfUp(r, roundBy);
            } catch (ArithmeticException e) {
                throw SLOW;
            }
        }
    }

    /** {@code v / by} rounded half away from zero, as BigDecimal's HALF_UP. */
    static long roundHalfUp(long v, long by) {
        long q = v / by;
        long rest = Math.abs(v % by);
        return rest * 2 >= by ? q + Long.signum(v) : q;
    }

    private static final class ExactNegate extends Exact {
        final Exact a;

        ExactNegate(Exact a) {
            super(a.scale, a.family);
            this.a = a;
        }

        @Override
        long get(RowConverter c) {
            long x = a.get(c);
            if (c.isNull) {
                return 0;
            }
            if (x == Long.MIN_VALUE) {
                throw SLOW;
            }
            return -x;
        }
    }

    /** The expression compiled to an {@link Exact}, or null if it is not one this class compiles. */
    private Exact exact(RowExpr e) {
        SqlType type = e.type();
        if (e instanceof RowExpr.Column column) {
            int position = positions[column.index()];
            if (position < 0) {
                return null;
            }
            return switch (type.kind()) {
                case TINYINT -> new ExactColumn(position, BYTE, 0, 0, Family.NUMBER);
                case SMALLINT -> new ExactColumn(position, SHORT, 0, 0, Family.NUMBER);
                case INT -> new ExactColumn(position, INT, 0, 0, Family.NUMBER);
                case BIGINT -> new ExactColumn(position, LONG, 0, 0, Family.NUMBER);
                case DECIMAL ->
                    type.precision() <= TupleCodec.LONG_DIGITS
                            ? new ExactColumn(position, DECIMAL, type.precision(), type.scale(), Family.NUMBER)
                            : null;
                case DATE -> new ExactColumn(position, INT, 0, 0, Family.DATE);
                case TIME -> new ExactColumn(position, INT, 0, 0, Family.TIME);
                case TIMESTAMP ->
                    type.precision() <= 6
                            ? new ExactColumn(position, TIMESTAMP_MICROS, type.precision(), 6, Family.TIMESTAMP)
                            : null;
                default -> null;
            };
        }
        if (e instanceof RowExpr.Literal l) {
            return constant(l.value());
        }
        if (e instanceof RowExpr.Negate n) {
            Exact a = exact(n.operand());
            return a == null || a.family != Family.NUMBER ? null : new ExactNegate(a);
        }
        if (e instanceof RowExpr.Arithmetic a && "+-*".indexOf(a.op()) >= 0 && type.isExactNumeric()) {
            Exact x = exact(a.left());
            Exact y = exact(a.right());
            if (x == null || y == null || x.family != Family.NUMBER || y.family != Family.NUMBER) {
                return null;
            }
            int natural = a.op() == '*' ? x.scale + y.scale : Math.max(x.scale, y.scale);
            int scale = Math.min(natural, type.exactScale());
            return natural > TupleCodec.LONG_DIGITS ? null : new ExactArithmetic(a.op(), x, y, natural, scale);
        }
        return null;
    }

    /** A literal as an {@link Exact} constant, or null (NULL, strings, doubles, values beyond a long). */
    private static Exact constant(Object v) {
        if (v instanceof Long l) {
            return new ExactConstant(l, 0, Family.NUMBER);
        }
        if (v instanceof BigDecimal d) {
            if (d.scale() < 0
                    || d.scale() > TupleCodec.LONG_DIGITS
                    || d.unscaledValue().bitLength() > 63) {
                return null;
            }
            return new ExactConstant(d.unscaledValue().longValue(), d.scale(), Family.NUMBER);
        }
        if (v instanceof LocalDate d) {
            return new ExactConstant(d.toEpochDay(), 0, Family.DATE);
        }
        if (v instanceof LocalTime t) {
            return t.getNano() % 1_000_000 != 0
                    ? null
                    : new ExactConstant(t.toNanoOfDay() / 1_000_000L, 0, Family.TIME);
        }
        if (v instanceof LocalDateTime t) {
            long seconds = t.toEpochSecond(ZoneOffset.UTC);
            if (t.getNano() % 1000 != 0 || Math.abs(seconds) > Long.MAX_VALUE / 1_000_000L - 1) {
                return null;
            }
            return new ExactConstant(seconds * 1_000_000L + t.getNano() / 1000, 6, Family.TIMESTAMP);
        }
        return null;
    }

    // ---- predicates, in three-valued logic ----

    private static final int FALSE = 0;
    private static final int TRUE = 1;
    private static final int UNKNOWN = 2;

    /** A condition on the row: {@link #TRUE}, {@link #FALSE} or {@link #UNKNOWN}. */
    private abstract static class Pred {
        abstract int test(RowConverter c);
    }

    private static final class CompareExact extends Pred {
        final RowExpr.Comparison op;
        final Exact a;
        final Exact b;
        final long alignA;
        final long alignB;

        CompareExact(RowExpr.Comparison op, Exact a, Exact b) {
            this.op = op;
            this.a = a;
            this.b = b;
            int scale = Math.max(a.scale, b.scale);
            this.alignA = POW10[scale - a.scale];
            this.alignB = POW10[scale - b.scale];
        }

        @Override
        int test(RowConverter c) {
            c.isNull = false;
            long x = a.get(c);
            if (c.isNull) {
                return UNKNOWN;
            }
            long y = b.get(c);
            if (c.isNull) {
                return UNKNOWN;
            }
            try {
                return op.holds(Long.compare(Math.multiplyExact(x, alignA), Math.multiplyExact(y, alignB)))
                        ? TRUE
                        : FALSE;
            } catch (ArithmeticException e) {
                throw SLOW;
            }
        }
    }

    /** A string column compared with a string literal, by code point as Flink compares UTF-8 bytes. */
    private static final class CompareString extends Pred {
        final RowExpr.Comparison op;
        final int position;
        final StringData literal;
        /** Whether the literal is on the left. */
        final boolean flipped;

        CompareString(RowExpr.Comparison op, int position, String literal, boolean flipped) {
            this.op = op;
            this.position = position;
            this.literal = BinaryStringData.fromString(literal);
            this.flipped = flipped;
        }

        @Override
        int test(RowConverter c) {
            if (c.row.isNullAt(position)) {
                return UNKNOWN;
            }
            int cmp = Integer.signum(c.row.getString(position).compareTo(literal));
            return op.holds(flipped ? -cmp : cmp) ? TRUE : FALSE;
        }
    }

    private static final class Junction extends Pred {
        final boolean and;
        final Pred[] operands;

        Junction(boolean and, Pred[] operands) {
            this.and = and;
            this.operands = operands;
        }

        @Override
        int test(RowConverter c) {
            boolean unknown = false;
            for (Pred p : operands) {
                int v = p.test(c);
                if (v == UNKNOWN) {
                    unknown = true;
                } else if ((v == TRUE) != and) {
                    return and ? FALSE : TRUE;
                }
            }
            return unknown ? UNKNOWN : and ? TRUE : FALSE;
        }
    }

    private static final class Not extends Pred {
        final Pred operand;

        Not(Pred operand) {
            this.operand = operand;
        }

        @Override
        int test(RowConverter c) {
            int v = operand.test(c);
            return v == UNKNOWN ? UNKNOWN : v == TRUE ? FALSE : TRUE;
        }
    }

    /** {@code column IS [NOT] NULL}. */
    private static final class IsNull extends Pred {
        final int position;
        final boolean negated;

        IsNull(int position, boolean negated) {
            this.position = position;
            this.negated = negated;
        }

        @Override
        int test(RowConverter c) {
            return c.row.isNullAt(position) != negated ? TRUE : FALSE;
        }
    }

    /** {@code e IS [NOT] NULL} of an exact value. */
    private static final class IsNullExact extends Pred {
        final Exact operand;
        final boolean negated;

        IsNullExact(Exact operand, boolean negated) {
            this.operand = operand;
            this.negated = negated;
        }

        @Override
        int test(RowConverter c) {
            c.isNull = false;
            operand.get(c);
            return c.isNull != negated ? TRUE : FALSE;
        }
    }

    /** {@code p IS [NOT] TRUE/FALSE}, never UNKNOWN. */
    private static final class IsBoolean extends Pred {
        final Pred operand;
        final int value;
        final boolean negated;

        IsBoolean(Pred operand, boolean value, boolean negated) {
            this.operand = operand;
            this.value = value ? TRUE : FALSE;
            this.negated = negated;
        }

        @Override
        int test(RowConverter c) {
            return (operand.test(c) == value) != negated ? TRUE : FALSE;
        }
    }

    /** A BOOLEAN column as a condition. */
    private static final class BooleanColumn extends Pred {
        final int position;

        BooleanColumn(int position) {
            this.position = position;
        }

        @Override
        int test(RowConverter c) {
            return c.row.isNullAt(position) ? UNKNOWN : c.row.getBoolean(position) ? TRUE : FALSE;
        }
    }

    private static final class Constant extends Pred {
        final int value;

        Constant(int value) {
            this.value = value;
        }

        @Override
        int test(RowConverter c) {
            return value;
        }
    }

    /** {@code integer [NOT] IN (constants)}. */
    private static final class InIntegers extends Pred {
        final Exact operand;
        final long[] sorted;
        final boolean hasNull;
        final boolean negated;

        InIntegers(Exact operand, long[] sorted, boolean hasNull, boolean negated) {
            this.operand = operand;
            this.sorted = sorted;
            this.hasNull = hasNull;
            this.negated = negated;
        }

        @Override
        int test(RowConverter c) {
            c.isNull = false;
            long v = operand.get(c);
            if (c.isNull) {
                return UNKNOWN;
            }
            if (Arrays.binarySearch(sorted, v) >= 0) {
                return negated ? FALSE : TRUE;
            }
            return hasNull ? UNKNOWN : negated ? TRUE : FALSE;
        }
    }

    /** {@code string column [NOT] IN (constants)}. */
    private static final class InStrings extends Pred {
        final int position;
        final Set<StringData> values;
        final boolean hasNull;
        final boolean negated;

        InStrings(int position, Set<StringData> values, boolean hasNull, boolean negated) {
            this.position = position;
            this.values = values;
            this.hasNull = hasNull;
            this.negated = negated;
        }

        @Override
        int test(RowConverter c) {
            if (c.row.isNullAt(position)) {
                return UNKNOWN;
            }
            if (values.contains(c.row.getString(position))) {
                return negated ? FALSE : TRUE;
            }
            return hasNull ? UNKNOWN : negated ? TRUE : FALSE;
        }
    }

    /** The condition compiled, or null if some part of it is not one this class compiles. */
    private Pred pred(RowExpr e) {
        if (e instanceof RowExpr.Literal l) {
            return new Constant(l.value() == null ? UNKNOWN : Boolean.TRUE.equals(l.value()) ? TRUE : FALSE);
        }
        if (e instanceof RowExpr.Column column) {
            int position = positions[column.index()];
            return position >= 0 && column.type().kind() == SqlType.Kind.BOOLEAN ? new BooleanColumn(position) : null;
        }
        if (e instanceof RowExpr.Compare cmp) {
            return compare(cmp);
        }
        if (e instanceof RowExpr.Junction j) {
            Pred[] operands = new Pred[j.operands().size()];
            for (int i = 0; i < operands.length; i++) {
                operands[i] = pred(j.operands().get(i));
                if (operands[i] == null) {
                    return null;
                }
            }
            return new Junction(j.and(), operands);
        }
        if (e instanceof RowExpr.Not n) {
            Pred p = pred(n.operand());
            return p == null ? null : new Not(p);
        }
        if (e instanceof RowExpr.Is is) {
            if (is.value() == null) {
                if (is.operand() instanceof RowExpr.Column column) {
                    return positions[column.index()] >= 0 ? new IsNull(positions[column.index()], is.negated()) : null;
                }
                Exact operand = exact(is.operand());
                return operand == null ? null : new IsNullExact(operand, is.negated());
            }
            Pred p = pred(is.operand());
            return p == null ? null : new IsBoolean(p, is.value(), is.negated());
        }
        if (e instanceof RowExpr.In in) {
            return in(in);
        }
        return null;
    }

    private Pred compare(RowExpr.Compare cmp) {
        int left = stringColumn(cmp.left());
        if (left >= 0 && cmp.right() instanceof RowExpr.Literal l && l.value() instanceof String s) {
            return new CompareString(cmp.op(), left, s, false);
        }
        int right = stringColumn(cmp.right());
        if (right >= 0 && cmp.left() instanceof RowExpr.Literal l && l.value() instanceof String s) {
            return new CompareString(cmp.op(), right, s, true);
        }
        Exact a = exact(cmp.left());
        Exact b = exact(cmp.right());
        if (a == null || b == null || a.family != b.family || Math.abs(a.scale - b.scale) > TupleCodec.LONG_DIGITS) {
            return null;
        }
        return new CompareExact(cmp.op(), a, b);
    }

    private Pred in(RowExpr.In in) {
        int column = stringColumn(in.operand());
        if (column >= 0) {
            Set<StringData> values = new HashSet<>();
            for (Object v : in.values()) {
                if (!(v instanceof String s)) {
                    return null;
                }
                values.add(BinaryStringData.fromString(s));
            }
            return new InStrings(column, values, in.hasNull(), in.negated());
        }
        Exact operand = exact(in.operand());
        if (operand == null || operand.family != Family.NUMBER || operand.scale != 0) {
            return null;
        }
        List<Long> values = new ArrayList<>();
        for (Object v : in.values()) {
            if (!(v instanceof Long l)) {
                return null;
            }
            values.add(l);
        }
        long[] sorted = values.stream().mapToLong(Long::longValue).sorted().toArray();
        return new InIntegers(operand, sorted, in.hasNull(), in.negated());
    }

    /** The input position of a string column, or -1 if {@code e} is none. */
    private int stringColumn(RowExpr e) {
        return e instanceof RowExpr.Column column && column.type().kind() == SqlType.Kind.STRING
                ? positions[column.index()]
                : -1;
    }

    // ---- payload factors ----

    /** A row's contribution to one component of the payload. */
    private abstract static class FactorNode {
        /** Puts the contribution into {@code values[i]} (and, for a chain of objects, {@code objects[i]}). */
        abstract void apply(RowConverter c, long[] values, Object[] objects, int i) throws RejectedRowException;
    }

    /** A factor the {@link Factor} computes on the row's values. */
    private static final class SlowFactor extends FactorNode {
        final Factor factor;

        SlowFactor(Factor factor) {
            this.factor = factor;
        }

        @Override
        void apply(RowConverter c, long[] values, Object[] objects, int i) throws RejectedRowException {
            factor.apply(c.values(), values, objects, i);
        }
    }

    /** A factor of an exact value, its conditions compiled. */
    private static final class ExactFactor extends FactorNode {
        final LongComponent kind;
        final Pred[] conditions;
        /** The value, or null for the component's one. */
        final Exact value;
        /** From the value's scale to the factor's. */
        final long rescale;

        ExactFactor(LongComponent kind, Pred[] conditions, Exact value, long rescale) {
            this.kind = kind;
            this.conditions = conditions;
            this.value = value;
            this.rescale = rescale;
        }

        @Override
        void apply(RowConverter c, long[] values, Object[] objects, int i) {
            values[i] = units(c);
        }

        private long units(RowConverter c) {
            for (Pred p : conditions) {
                if (p.test(c) != TRUE) {
                    return kind.zero();
                }
            }
            if (value == null) {
                return kind.one();
            }
            c.isNull = false;
            long v = value.get(c);
            if (c.isNull) {
                return kind.zero();
            }
            try {
                long units = Math.multiplyExact(v, rescale);
                if (kind == LongComponent.MIN && units == Long.MAX_VALUE
                        || kind == LongComponent.MAX && units == Long.MIN_VALUE) {
                    throw SLOW; // out of range: the slow path says so
                }
                return units;
            } catch (ArithmeticException e) {
                throw SLOW; // beyond 64 bits: the slow path says so
            }
        }
    }

    /** MIN or MAX over a chain of longs (integers, decimals, dates, timestamps): the row's value as its element. */
    private static final class ChainFactor extends FactorNode {
        final ChainComponent kind;
        final Pred[] conditions;
        /** The value, or null for the component's one. */
        final Exact value;
        /** From the value's scale to the chain's. */
        final long rescale;

        ChainFactor(ChainComponent kind, Pred[] conditions, Exact value, long rescale) {
            this.kind = kind;
            this.conditions = conditions;
            this.value = value;
            this.rescale = rescale;
        }

        @Override
        void apply(RowConverter c, long[] values, Object[] objects, int i) {
            for (Pred p : conditions) {
                if (p.test(c) != TRUE) {
                    values[i] = kind.zero();
                    return;
                }
            }
            if (value == null) {
                values[i] = kind.one();
                return;
            }
            c.isNull = false;
            long v = value.get(c);
            if (c.isNull) {
                values[i] = kind.zero();
                return;
            }
            try {
                long element = Math.multiplyExact(v, rescale);
                if (element == Chain.TOP || element == Chain.BOTTOM) {
                    throw SLOW; // MIN and MAX keep it for no value: the slow path says so
                }
                values[i] = element;
            } catch (ArithmeticException e) {
                throw SLOW;
            }
        }
    }

    /** The factor of a MIN or MAX over a chain of longs, or null if its value is not compiled. */
    private FactorNode chainFactor(ChainComponent kind, Pred[] conditions, RowExpr e) {
        if (e == null) {
            return new ChainFactor(kind, conditions, null, 1);
        }
        Exact value = exact(e);
        if (value == null) {
            return null;
        }
        Chain chain = kind.chain();
        Family family = switch (chain.kind()) {
            case INTEGER, DECIMAL -> Family.NUMBER;
            case DATE -> Family.DATE;
            case TIMESTAMP -> Family.TIMESTAMP;
            default -> null;
        };
        int scale = chain.kind() == Chain.Kind.TIMESTAMP ? 6 : chain.scale();
        if (family != value.family || value.scale > scale) {
            return null;
        }
        return new ChainFactor(kind, conditions, value, POW10[scale - value.scale]);
    }

    private FactorNode slowFactor(Factor f) {
        slowParts.add(f.describe());
        return new SlowFactor(f);
    }

    private FactorNode factor(Factor f) {
        Pred[] conditions = new Pred[f.conditions().size()];
        for (int i = 0; i < conditions.length; i++) {
            conditions[i] = pred(f.conditions().get(i));
            if (conditions[i] == null) {
                return slowFactor(f);
            }
        }
        if (f.kind() instanceof ChainComponent chain) {
            FactorNode node = chainFactor(chain, conditions, f.value());
            return node != null ? node : slowFactor(f);
        }
        if (!(f.kind() instanceof LongComponent kind)
                || kind == LongComponent.MIN_DOUBLE
                || kind == LongComponent.MAX_DOUBLE) {
            return slowFactor(f); // MIN and MAX of doubles
        }
        if (f.value() == null) {
            return new ExactFactor(kind, conditions, null, 1);
        }
        Exact value = exact(f.value());
        if (value == null || value.family != Family.NUMBER || value.scale > f.scale()) {
            return slowFactor(f);
        }
        return new ExactFactor(kind, conditions, value, POW10[f.scale() - value.scale]);
    }
}
