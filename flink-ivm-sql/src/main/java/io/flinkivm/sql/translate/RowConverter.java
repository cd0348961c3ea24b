package io.flinkivm.sql.translate;

import static io.flinkivm.sql.translate.CompiledRow.BOOLEAN;
import static io.flinkivm.sql.translate.CompiledRow.BYTE;
import static io.flinkivm.sql.translate.CompiledRow.DECIMAL;
import static io.flinkivm.sql.translate.CompiledRow.DOUBLE;
import static io.flinkivm.sql.translate.CompiledRow.FLOAT;
import static io.flinkivm.sql.translate.CompiledRow.INT;
import static io.flinkivm.sql.translate.CompiledRow.LONG;
import static io.flinkivm.sql.translate.CompiledRow.SHORT;
import static io.flinkivm.sql.translate.CompiledRow.STRING;
import static io.flinkivm.sql.translate.CompiledRow.TIMESTAMP_MICROS;
import static io.flinkivm.sql.translate.CompiledRow.TIMESTAMP_NANOS;

import io.flinkivm.core.query.Tuple;
import io.flinkivm.core.semiring.Chain;
import io.flinkivm.core.semiring.ChainComponent;
import io.flinkivm.core.semiring.LongComponent;
import java.time.LocalDate;
import java.time.LocalTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.flink.annotation.Internal;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.TimestampData;

/**
 * One table's rows as Flink gives them ({@link RowData} of the table's input columns, in order) to the
 * inserts {@link TableInput#inserts} makes of them, compiled once per table. A column is read with its
 * typed getter into its tuple value ({@link TupleCodec}): an integer, a DECIMAL of at most 18 digits as
 * its unscaled {@code long}, a DATE or TIME as Flink's {@code int}, a TIMESTAMP as a {@code long}.
 * Payloads are computed in overflow-checked {@code long} arithmetic on the unscaled values (a SUM of
 * {@code l_extendedprice * (1 - l_discount)} is two multiplications and a subtraction); comparisons of
 * numbers, dates and strings with each other, AND, OR, NOT, IS [NOT] NULL and IN lists of integers or
 * strings are compiled too ({@link CompiledRow}). Everything else (other functions, doubles in payloads, decimals beyond 18
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

    private final TableInput table;
    /** Per column of the table: its position among the input columns, or -1. */
    private final int[] positions;

    /** The filters and exact values compiled, with the row they read. */
    private final CompiledRow compiled;

    private final Relation[] relations;
    /** The expressions evaluated on the row's values, not compiled. */
    private final List<String> slowParts = new ArrayList<>();

    private final Tuple[] tuples;
    private final Object[] payloads;

    /** The row being converted. */
    private RowData row;
    /** Its values in {@link SqlValues}' domain, one per column of the table, once an expression asked. */
    private Object[] values;

    private RowConverter(TableInput table) {
        this.table = table;
        this.positions = new int[table.width()];
        Arrays.fill(positions, -1);
        for (int i = 0; i < table.inputCount(); i++) {
            positions[table.inputColumn(i)] = i;
        }
        this.compiled = new CompiledRow(positions);
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
        compiled.row = row;
        int n = 0;
        try {
            for (int r = 0; r < relations.length; r++) {
                if (relations[r].convert(this, r)) {
                    n++;
                } else {
                    tuples[r] = null;
                }
            }
        } catch (CompiledRow.Slow slow) {
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

    /**
     * The mark of the row {@link #convert} took last for its {@code relation}-th relation, which that row
     * made no insert of ({@link TableInput#marks}): the relation's tuple, NULL where a column is NULL; null
     * where a key column is NULL or a value cannot be computed (no row can look that up).
     */
    public Tuple mark(int relation) {
        Relation r = relations[relation];
        Object[] tuple = new Object[r.slots.length];
        try {
            for (int i = 0; i < tuple.length; i++) {
                Object v = r.slots[i].read(this);
                if (v == null) {
                    if (r.input.keys()[i]) {
                        return null;
                    }
                    v = SqlType.NULL_TUPLE_VALUE;
                }
                tuple[i] = v;
            }
        } catch (CompiledRow.Slow slow) {
            List<TableInput.Insert> marks =
                    table.marks(values(), java.util.Set.of(table.relations().get(relation)));
            return marks.isEmpty() ? null : marks.get(0).tuple();
        } catch (RejectedRowException | RuntimeException e) {
            return null;
        }
        return Tuple.wrap(tuple);
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
        final CompiledRow.Pred filter;
        /** The filter where it is not compiled (evaluated on the row's values), else null. */
        final RowExpr slowFilter;

        final Slot[] slots;
        /** Per factor of a product payload; null for the semiring's one. */
        final FactorNode[] factors;

        Relation(TableInput.RelationInput input) {
            this.input = input;
            CompiledRow.Pred f = input.filter() == null ? null : compiled.pred(input.filter());
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
            if (filter != null
                    ? filter.test(c.compiled) != CompiledRow.TRUE
                    : slowFilter != null && !slowFilter.isTrue(c.values())) {
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
        long rescale = how == DECIMAL ? CompiledRow.POW10[codec.scale() - type.scale()] : 1;
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

    /**
     * A factor of a row's value as a long, scaled, its conditions compiled: the component's zero where a
     * condition fails or the value is NULL, its one where the factor has no value.
     */
    private abstract static class ScaledFactor extends FactorNode {
        final CompiledRow.Pred[] conditions;
        /** The value, or null for the component's one. */
        final CompiledRow.Exact value;
        /** From the value's scale to the factor's. */
        final long rescale;

        ScaledFactor(CompiledRow.Pred[] conditions, CompiledRow.Exact value, long rescale) {
            this.conditions = conditions;
            this.value = value;
            this.rescale = rescale;
        }

        abstract long zero();

        abstract long one();

        /** Whether the component keeps {@code units} for something else than a value (out of its range). */
        abstract boolean reserved(long units);

        @Override
        void apply(RowConverter c, long[] values, Object[] objects, int i) {
            values[i] = units(c);
        }

        private long units(RowConverter c) {
            for (CompiledRow.Pred p : conditions) {
                if (p.test(c.compiled) != CompiledRow.TRUE) {
                    return zero();
                }
            }
            if (value == null) {
                return one();
            }
            c.compiled.isNull = false;
            long v = value.get(c.compiled);
            if (c.compiled.isNull) {
                return zero();
            }
            try {
                long units = Math.multiplyExact(v, rescale);
                if (reserved(units)) {
                    throw CompiledRow.SLOW; // out of range: the slow path says so
                }
                return units;
            } catch (ArithmeticException e) {
                throw CompiledRow.SLOW; // beyond 64 bits: the slow path says so
            }
        }
    }

    /** A factor of an exact value (SUM, COUNT, MIN and MAX of numbers). */
    private static final class ExactFactor extends ScaledFactor {
        final LongComponent kind;

        ExactFactor(LongComponent kind, CompiledRow.Pred[] conditions, CompiledRow.Exact value, long rescale) {
            super(conditions, value, rescale);
            this.kind = kind;
        }

        @Override
        long zero() {
            return kind.zero();
        }

        @Override
        long one() {
            return kind.one();
        }

        @Override
        boolean reserved(long units) {
            return kind == LongComponent.MIN && units == Long.MAX_VALUE
                    || kind == LongComponent.MAX && units == Long.MIN_VALUE;
        }
    }

    /** MIN or MAX over a chain of longs (integers, decimals, dates, timestamps): the row's value as its element. */
    private static final class ChainFactor extends ScaledFactor {
        final ChainComponent kind;

        ChainFactor(ChainComponent kind, CompiledRow.Pred[] conditions, CompiledRow.Exact value, long rescale) {
            super(conditions, value, rescale);
            this.kind = kind;
        }

        @Override
        long zero() {
            return kind.zero();
        }

        @Override
        long one() {
            return kind.one();
        }

        @Override
        boolean reserved(long units) {
            return units == Chain.TOP || units == Chain.BOTTOM; // MIN and MAX keep them for no value
        }
    }

    /** The factor of a MIN or MAX over a chain of longs, or null if its value is not compiled. */
    private FactorNode chainFactor(ChainComponent kind, CompiledRow.Pred[] conditions, RowExpr e) {
        if (e == null) {
            return new ChainFactor(kind, conditions, null, 1);
        }
        CompiledRow.Exact value = compiled.exact(e);
        if (value == null) {
            return null;
        }
        Chain chain = kind.chain();
        CompiledRow.Family family = switch (chain.kind()) {
            case INTEGER, DECIMAL -> CompiledRow.Family.NUMBER;
            case DATE -> CompiledRow.Family.DATE;
            case TIMESTAMP -> CompiledRow.Family.TIMESTAMP;
            default -> null;
        };
        int scale = chain.kind() == Chain.Kind.TIMESTAMP ? 6 : chain.scale();
        if (family != value.family || value.scale > scale) {
            return null;
        }
        return new ChainFactor(kind, conditions, value, CompiledRow.POW10[scale - value.scale]);
    }

    private FactorNode slowFactor(Factor f) {
        slowParts.add(f.describe());
        return new SlowFactor(f);
    }

    private FactorNode factor(Factor f) {
        CompiledRow.Pred[] conditions = new CompiledRow.Pred[f.conditions().size()];
        for (int i = 0; i < conditions.length; i++) {
            conditions[i] = compiled.pred(f.conditions().get(i));
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
        CompiledRow.Exact value = compiled.exact(f.value());
        if (value == null || value.family != CompiledRow.Family.NUMBER || value.scale > f.scale()) {
            return slowFactor(f);
        }
        return new ExactFactor(kind, conditions, value, CompiledRow.POW10[f.scale() - value.scale]);
    }
}
