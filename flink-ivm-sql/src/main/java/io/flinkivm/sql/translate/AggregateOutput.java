package io.flinkivm.sql.translate;

import io.flinkivm.core.semiring.Chain;
import io.flinkivm.core.semiring.ChainComponent;
import io.flinkivm.core.semiring.Component;
import io.flinkivm.core.semiring.LongComponent;
import io.flinkivm.core.semiring.Product;
import java.io.Serializable;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.MathContext;
import java.math.RoundingMode;
import java.time.LocalDate;
import java.time.LocalTime;

/**
 * How one aggregate of the SELECT list is read off a result tuple's payload: from the components of a
 * {@link Product}, or from a natural-number count. NULL where SQL gives NULL: a SUM, AVG, MIN or MAX
 * over no non-NULL value.
 *
 * @param function COUNT, COUNT DISTINCT, SUM, AVG, MIN or MAX
 * @param type the result's SQL type
 * @param count the component that counts the rows with a non-NULL argument (0: the hidden count); of
 *     COUNT DISTINCT, the rows that make a pair (group, value) count
 * @param terms SUM and AVG: the components whose weighted sum is the sum; MIN and MAX: the one component;
 *     COUNT DISTINCT: its index among the query's distinct aggregates ({@link DistinctGroups})
 * @param coefficients each term's constant factor
 * @param scales each term's scale (its units are 10^-scale)
 * @param constant MIN and MAX: a constant added to the component (exact arguments), else zero
 * @param kind MIN and MAX: the component's kind (a {@link ChainComponent} for an argument of one table's
 *     row, of any ordered type), else null
 */
record AggregateOutput(
        String function,
        SqlType type,
        int count,
        int[] terms,
        BigDecimal[] coefficients,
        int[] scales,
        BigDecimal constant,
        Component kind)
        implements Serializable {

    /**
     * The aggregate's value (a Java value of {@link #type()}, as a Flink Row holds it), null for NULL: of
     * a group's payload ({@link DistinctGroups.Group}) where the query has COUNT(DISTINCT ...), else of a
     * result tuple's.
     */
    Object value(Object payload) {
        if (payload instanceof DistinctGroups.Group g) {
            return function.equals("COUNT DISTINCT") ? (Object) g.distinct(terms[0]) : value(g.payload());
        }
        if (!(payload instanceof Product p)) {
            return SqlOutputs.toJava((Long) payload, type);
        }
        long rows = p.get(count);
        switch (function) {
            case "COUNT":
                return SqlOutputs.toJava(rows, type);
            case "SUM":
                return rows == 0 ? null : SqlOutputs.toJava(sum(p), type);
            case "AVG":
                return rows == 0 ? null : SqlOutputs.toJava(average(sum(p), rows), type);
            default:
                break;
        }
        long v = p.get(terms[0]);
        if (kind instanceof ChainComponent c) {
            if (v == c.zero()) {
                return null;
            }
            if (v == c.one()) {
                throw new IllegalStateException(function + " of no value: the one of " + c.label() + " in " + p);
            }
            return SqlOutputs.toJava(element(c.chain(), v, p.object(terms[0])), type);
        }
        LongComponent numbers = (LongComponent) kind;
        if (v == numbers.zero()) {
            return null;
        }
        if (kind == LongComponent.MIN_DOUBLE || kind == LongComponent.MAX_DOUBLE) {
            return SqlOutputs.toJava(LongComponent.value(v), type);
        }
        return SqlOutputs.toJava(BigDecimal.valueOf(v, scales[0]).add(constant), type);
    }

    /** An element of a chain (neither ⊤ nor ⊥) as a value of {@link SqlValues}' domain. */
    private static Object element(Chain chain, long v, Object object) {
        return switch (chain.kind()) {
            case INTEGER -> v;
            case DECIMAL -> BigDecimal.valueOf(v, chain.scale());
            case DOUBLE -> Chain.decodeDouble(v);
            case BOOLEAN -> v == 1;
            case DATE -> LocalDate.ofEpochDay(v);
            case TIME -> LocalTime.ofNanoOfDay(v);
            case TIMESTAMP -> Chain.timestamp(v);
            case STRING, BIG_DECIMAL, TIMESTAMP_NANOS -> object;
        };
    }

    private BigDecimal sum(Product p) {
        BigDecimal total = BigDecimal.ZERO;
        for (int i = 0; i < terms.length; i++) {
            total = total.add(BigDecimal.valueOf(p.get(terms[i]), scales[i]).multiply(coefficients[i]));
        }
        return total;
    }

    /** SUM / count with Flink's AVG: integer division toward zero for integers, DECIMAL128 then the scale. */
    private BigDecimal average(BigDecimal sum, long rows) {
        if (type.isInteger()) {
            BigInteger q = sum.toBigIntegerExact().divide(BigInteger.valueOf(rows));
            return new BigDecimal(q);
        }
        return sum.divide(BigDecimal.valueOf(rows), MathContext.DECIMAL128)
                .setScale(type.scale(), RoundingMode.HALF_UP);
    }

    /** For explain: {@code SUM = (c1 + c2) / 10^4}, {@code AVG = c1 / 10^2 / c3}. */
    String describe() {
        StringBuilder sb = new StringBuilder();
        if (function.equals("COUNT")) {
            return component(count);
        }
        if (function.equals("COUNT DISTINCT")) {
            return "the number of non-NULL values with " + component(count) + " > 0 in the group's tuples";
        }
        for (int i = 0; i < terms.length; i++) {
            if (i > 0) {
                sb.append(coefficients[i].signum() < 0 ? " - " : " + ");
            } else if (coefficients[i].signum() < 0) {
                sb.append('-');
            }
            BigDecimal c = coefficients[i].abs();
            sb.append(c.compareTo(BigDecimal.ONE) == 0 ? "" : c.toPlainString() + "·")
                    .append(component(terms[i]))
                    .append(scales[i] > 0 ? "/10^" + scales[i] : "");
        }
        if (constant != null && constant.signum() != 0) {
            sb.append(" + ").append(constant.toPlainString());
        }
        if (function.equals("AVG")) {
            sb.append(" / ").append(component(count));
        }
        if (!function.equals("MIN") && !function.equals("MAX")) {
            sb.append(", NULL if ").append(component(count)).append(" = 0");
        } else if (kind instanceof ChainComponent c) {
            sb.append(", NULL if ").append(c.chain().format(c.zero(), null));
        } else {
            sb.append(", NULL if ").append(((LongComponent) kind).format(((LongComponent) kind).zero()));
        }
        return sb.toString();
    }

    static String component(int i) {
        return i == 0 ? "count" : "c" + i;
    }
}
