package io.flinkivm.sql.translate;

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
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.data.binary.BinaryStringData;

/**
 * The compiled expressions of one table's rows, for {@link RowConverter}: exact values (numbers, dates,
 * times and timestamps as {@code long}s in units of 10^-scale, in overflow-checked arithmetic) and
 * conditions in SQL's three-valued logic, read from the current {@link RowData} with typed getters.
 * Where a compiled value cannot give the exact result (an intermediate overflow) it throws {@link #SLOW}
 * and the row is evaluated on its values instead. Not thread-safe: one per converter.
 */
final class CompiledRow {

    /** 10^i for i = 0 .. 18. */
    static final long[] POW10 = new long[TupleCodec.LONG_DIGITS + 1];

    static {
        POW10[0] = 1;
        for (int i = 1; i < POW10.length; i++) {
            POW10[i] = POW10[i - 1] * 10;
        }
    }

    /** Thrown where the compiled path cannot give the exact result (an intermediate overflow): the row is evaluated slowly. */
    static final class Slow extends RuntimeException {
        private static final long serialVersionUID = 1L;

        Slow() {
            super("evaluate on the row's values", null, false, false);
        }
    }

    static final Slow SLOW = new Slow();

    static final int BYTE = 0;
    static final int SHORT = 1;
    static final int INT = 2;
    static final int LONG = 3;
    static final int DECIMAL = 4;
    static final int FLOAT = 5;
    static final int DOUBLE = 6;
    static final int STRING = 7;
    static final int BOOLEAN = 8;
    static final int TIMESTAMP_MICROS = 9;
    static final int TIMESTAMP_NANOS = 10;

    /** Per column of the table: its position among the input columns, or -1. */
    private final int[] positions;

    /** The row being converted. */
    RowData row;
    /** Set by an {@link Exact} that found a NULL. */
    boolean isNull;

    /** @param positions per column of the table, its position among the input columns, or -1 */
    CompiledRow(int[] positions) {
        this.positions = positions;
    }

    // ---- exact values: numbers, dates, times and timestamps as longs ----

    /** The value families an {@link Exact} has: values compare only within one. */
    enum Family {
        NUMBER,
        DATE,
        TIME,
        TIMESTAMP
    }

    /** An exact value of the row as a {@code long} in units of 10^-scale; sets {@link CompiledRow#isNull} for NULL. */
    abstract static class Exact {
        final int scale;
        final Family family;

        Exact(int scale, Family family) {
            this.scale = scale;
            this.family = family;
        }

        /** The value; on NULL, sets {@code c.isNull} and returns anything. */
        abstract long get(CompiledRow c);
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
        long get(CompiledRow c) {
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
        long get(CompiledRow c) {
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
        long get(CompiledRow c) {
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
        long get(CompiledRow c) {
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
    Exact exact(RowExpr e) {
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

    static final int FALSE = 0;
    static final int TRUE = 1;
    static final int UNKNOWN = 2;

    /** A condition on the row: {@link #TRUE}, {@link #FALSE} or {@link #UNKNOWN}. */
    abstract static class Pred {
        abstract int test(CompiledRow c);
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
        int test(CompiledRow c) {
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
        int test(CompiledRow c) {
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
        int test(CompiledRow c) {
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
        int test(CompiledRow c) {
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
        int test(CompiledRow c) {
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
        int test(CompiledRow c) {
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
        int test(CompiledRow c) {
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
        int test(CompiledRow c) {
            return c.row.isNullAt(position) ? UNKNOWN : c.row.getBoolean(position) ? TRUE : FALSE;
        }
    }

    private static final class Constant extends Pred {
        final int value;

        Constant(int value) {
            this.value = value;
        }

        @Override
        int test(CompiledRow c) {
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
        int test(CompiledRow c) {
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
        int test(CompiledRow c) {
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
    Pred pred(RowExpr e) {
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
}
