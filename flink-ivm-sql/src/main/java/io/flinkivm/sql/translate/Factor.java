package io.flinkivm.sql.translate;

import io.flinkivm.core.semiring.Chain;
import io.flinkivm.core.semiring.ChainComponent;
import io.flinkivm.core.semiring.Component;
import io.flinkivm.core.semiring.LongComponent;
import java.io.Serializable;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.util.List;
import java.util.Set;

/**
 * What one table's row contributes to one component of a product payload: the component's one, or
 * the value of an expression over the row, in units of 10^-scale for the exact components, as an
 * element of its chain for MIN and MAX over a {@link ChainComponent} (a date as its day number, a string
 * as itself, ...). The contribution is the component's zero when a condition is not TRUE (a FILTER
 * clause, or another part of the aggregate's argument is NULL) or the value is NULL: SQL's aggregates
 * skip such rows.
 *
 * @param kind the component
 * @param value the row's value, or null for the component's one (then the contribution is an indicator)
 * @param scale exact values count units of 10^-scale
 * @param conditions predicates that must all be TRUE for the row to contribute
 */
record Factor(Component kind, RowExpr value, int scale, List<RowExpr> conditions) implements Serializable {

    Factor {
        conditions = List.copyOf(conditions);
    }

    /** Adds the indexes of the columns the contribution reads (its value's and its conditions') to {@code out}. */
    void columns(Set<Integer> out) {
        if (value != null) {
            RowExprs.columns(value, out);
        }
        for (RowExpr c : conditions) {
            RowExprs.columns(c, out);
        }
    }

    /** Whether the row always contributes the component's one. */
    boolean isOne() {
        return value == null && conditions.isEmpty();
    }

    /**
     * Puts the row's contribution into {@code values[i]} (and, for a chain of objects, {@code objects[i]}).
     *
     * @throws RejectedRowException if the value does not fit the component (more than 64 bits, or
     *     more decimals than its scale; an infinite double; a value MIN and MAX keep as ⊤ or ⊥)
     */
    void apply(Object[] row, long[] values, Object[] objects, int i) throws RejectedRowException {
        for (int c = 0; c < conditions.size(); c++) { // per row: no iterator
            if (!conditions.get(c).isTrue(row)) {
                values[i] = zero(kind);
                return;
            }
        }
        if (value == null) {
            values[i] = one(kind);
            return;
        }
        Object v = value.eval(row);
        if (v == null) {
            values[i] = zero(kind);
        } else if (kind instanceof ChainComponent c) {
            element(c.chain(), v, values, objects, i);
        } else {
            values[i] = switch ((LongComponent) kind) {
                case MIN_DOUBLE, MAX_DOUBLE -> {
                    double d = ((Number) v).doubleValue();
                    if (!Double.isFinite(d)) {
                        throw new RejectedRowException(value.text() + " = " + d + " is not a finite number");
                    }
                    yield LongComponent.bits(d);
                }
                default -> units(v);
            };
        }
    }

    static long zero(Component kind) {
        return kind instanceof ChainComponent c ? c.zero() : ((LongComponent) kind).zero();
    }

    static long one(Component kind) {
        return kind instanceof ChainComponent c ? c.one() : ((LongComponent) kind).one();
    }

    /** A value of the row as an element of {@code chain}: a long, or {@link Chain#VALUE} and the object. */
    private void element(Chain chain, Object v, long[] values, Object[] objects, int i) throws RejectedRowException {
        try {
            switch (chain.kind()) {
                case INTEGER -> {
                    long x = (Long) v;
                    if (x == Chain.TOP || x == Chain.BOTTOM) {
                        throw new RejectedRowException(
                                value.text() + " = " + x + " is out of range: MIN and MAX keep it for no value");
                    }
                    values[i] = x;
                }
                case DECIMAL ->
                    values[i] = SqlValues.decimal(v)
                            .setScale(chain.scale(), RoundingMode.UNNECESSARY)
                            .unscaledValue()
                            .longValueExact();
                case DOUBLE -> {
                    double d = ((Number) v).doubleValue();
                    if (!Double.isFinite(d)) {
                        throw new RejectedRowException(value.text() + " = " + d + " is not a finite number");
                    }
                    values[i] = Chain.encodeDouble(d);
                }
                case BOOLEAN -> values[i] = (Boolean) v ? 1 : 0;
                case DATE -> values[i] = ((LocalDate) v).toEpochDay();
                case TIME -> values[i] = ((LocalTime) v).toNanoOfDay();
                case TIMESTAMP -> values[i] = Chain.micros((LocalDateTime) v);
                case BIG_DECIMAL -> {
                    values[i] = Chain.VALUE;
                    objects[i] = SqlValues.decimal(v).setScale(chain.scale(), RoundingMode.UNNECESSARY);
                }
                default -> {
                    values[i] = Chain.VALUE;
                    objects[i] = v;
                }
            }
        } catch (ArithmeticException e) {
            throw new RejectedRowException(value.text() + " = " + SqlValues.literal(v) + " does not fit " + chain.name()
                    + ": " + e.getMessage());
        }
    }

    private long units(Object v) throws RejectedRowException {
        if (v instanceof Long l && scale == 0) {
            return checked(l);
        }
        try {
            // Exact, or an ArithmeticException for a fraction left over or more than 64 bits.
            return checked(SqlValues.decimal(v).scaleByPowerOfTen(scale).longValueExact());
        } catch (ArithmeticException e) {
            return unitsOrError(v);
        }
    }

    /** {@link #units} the slow way, which says which of its errors it is. */
    private long unitsOrError(Object v) throws RejectedRowException {
        BigDecimal exact = SqlValues.decimal(v).movePointRight(scale);
        if (exact.signum() != 0 && exact.stripTrailingZeros().scale() > 0) {
            throw new IllegalStateException(value.text() + " = " + v + " has more than " + scale + " decimals");
        }
        try {
            return checked(exact.longValueExact());
        } catch (ArithmeticException e) {
            throw new RejectedRowException(value.text() + " = " + SqlValues.literal(v)
                    + (scale > 0 ? " (" + exact.toBigInteger() + " units of 10^-" + scale + ")" : "")
                    + " exceeds 64 bits");
        }
    }

    /** The infinities of MIN and MAX are not values. */
    private long checked(long units) throws RejectedRowException {
        if (kind == LongComponent.MIN && units == Long.MAX_VALUE
                || kind == LongComponent.MAX && units == Long.MIN_VALUE) {
            throw new RejectedRowException(value.text() + " = " + units + " units is out of range");
        }
        return units;
    }

    /** Equal for two tables' aliases that contribute alike. */
    String signature() {
        StringBuilder sb =
                new StringBuilder(kind.label()).append('/').append(scale).append('/');
        sb.append(value == null ? "1" : value.text());
        for (RowExpr c : conditions) {
            sb.append(" if ").append(c.text());
        }
        return sb.toString();
    }

    /** For explain: {@code l_price * (1 - l_disc) in units of 10^-4}, with its conditions. */
    String describe() {
        StringBuilder sb = new StringBuilder(
                value != null
                        ? value.text()
                        : kind instanceof ChainComponent c
                                ? c.chain().format(c.one(), null)
                                : ((LongComponent) kind).format(((LongComponent) kind).one()));
        if (value != null
                && scale > 0
                && kind instanceof LongComponent l
                && l != LongComponent.MIN_DOUBLE
                && l != LongComponent.MAX_DOUBLE) {
            sb.append(" in units of 10^-").append(scale);
        }
        if (!conditions.isEmpty()) {
            sb.append(" where ");
            for (int i = 0; i < conditions.size(); i++) {
                sb.append(i == 0 ? "" : " and ").append(conditions.get(i).text());
            }
        }
        return sb.toString();
    }
}
