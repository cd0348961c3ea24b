package io.flinkivm.flink.sql;

import java.io.Serializable;
import java.math.BigDecimal;

/**
 * Arithmetic over the columns of one table row, the part of an aggregate's argument that a table
 * contributes as its payload: columns, numeric literals, {@code +}, {@code -} and {@code *}. Exact
 * columns (integers, decimals) are evaluated exactly; with an approximate column (DOUBLE, FLOAT) the
 * whole expression is evaluated in doubles, as SQL does.
 */
sealed interface PayloadExpression extends Serializable {

    /** The exact value over a row's input values (tuple values, see {@link SqlType#toTupleValue}). */
    BigDecimal exact(Object[] values);

    /** The value in doubles. */
    double approximate(Object[] values);

    /** Digits after the decimal point of {@link #exact} at most (SQL's rules: * adds scales, + and - take the larger). */
    int scale();

    /** Whether a DOUBLE or FLOAT column occurs. */
    boolean isApproximate();

    /** Whether only integer columns and integer literals occur. */
    boolean isIntegral();

    /** The same expression with each column's {@code input} replaced by {@code inputs.get(input)}. */
    PayloadExpression withInputs(java.util.Map<Integer, Integer> inputs);

    /** The text with the columns' names only (equal for two aliases of one table that contribute alike). */
    String signature();

    /** A column: {@code input} is its index among the table's input values. */
    record Column(int input, String alias, String name, SqlType type) implements PayloadExpression {
        @Override
        public boolean isIntegral() {
            return type.isInteger();
        }

        @Override
        public PayloadExpression withInputs(java.util.Map<Integer, Integer> inputs) {
            return new Column(inputs.get(input), alias, name, type);
        }

        @Override
        public BigDecimal exact(Object[] values) {
            return type.exactValue(values[input]);
        }

        @Override
        public double approximate(Object[] values) {
            Object v = values[input];
            return v instanceof Double d ? d : v instanceof Long l ? (double) l : Double.parseDouble((String) v);
        }

        @Override
        public int scale() {
            return type.exactScale();
        }

        @Override
        public boolean isApproximate() {
            return type.isApproximate();
        }

        @Override
        public String signature() {
            return name;
        }

        @Override
        public String toString() {
            return alias + "." + name;
        }
    }

    /** A numeric literal. */
    record Literal(BigDecimal value) implements PayloadExpression {
        @Override
        public boolean isIntegral() {
            return scale() == 0;
        }

        @Override
        public PayloadExpression withInputs(java.util.Map<Integer, Integer> inputs) {
            return this;
        }

        @Override
        public BigDecimal exact(Object[] values) {
            return value;
        }

        @Override
        public double approximate(Object[] values) {
            return value.doubleValue();
        }

        @Override
        public int scale() {
            return Math.max(0, value.scale());
        }

        @Override
        public boolean isApproximate() {
            return false;
        }

        @Override
        public String signature() {
            return toString();
        }

        @Override
        public String toString() {
            return value.toPlainString();
        }
    }

    /** {@code left op right} for op in {@code + - *}. */
    record Binary(char op, PayloadExpression left, PayloadExpression right) implements PayloadExpression {
        @Override
        public boolean isIntegral() {
            return left.isIntegral() && right.isIntegral();
        }

        @Override
        public PayloadExpression withInputs(java.util.Map<Integer, Integer> inputs) {
            return new Binary(op, left.withInputs(inputs), right.withInputs(inputs));
        }

        @Override
        public BigDecimal exact(Object[] values) {
            BigDecimal a = left.exact(values);
            BigDecimal b = right.exact(values);
            return switch (op) {
                case '+' -> a.add(b);
                case '-' -> a.subtract(b);
                default -> a.multiply(b);
            };
        }

        @Override
        public double approximate(Object[] values) {
            double a = left.approximate(values);
            double b = right.approximate(values);
            return switch (op) {
                case '+' -> a + b;
                case '-' -> a - b;
                default -> a * b;
            };
        }

        @Override
        public int scale() {
            return op == '*' ? left.scale() + right.scale() : Math.max(left.scale(), right.scale());
        }

        @Override
        public boolean isApproximate() {
            return left.isApproximate() || right.isApproximate();
        }

        @Override
        public String signature() {
            return "(" + left.signature() + " " + op + " " + right.signature() + ")";
        }

        @Override
        public String toString() {
            return operand(left, false) + " " + op + " " + operand(right, true);
        }

        private String operand(PayloadExpression e, boolean rightSide) {
            boolean parens = e instanceof Binary b
                    && (precedence(b.op) < precedence(op)
                            || rightSide && precedence(b.op) == precedence(op) && op == '-');
            return parens ? "(" + e + ")" : e.toString();
        }

        private static int precedence(char op) {
            return op == '*' ? 2 : 1;
        }
    }

    /** {@code -operand}. */
    record Negate(PayloadExpression operand) implements PayloadExpression {
        @Override
        public boolean isIntegral() {
            return operand.isIntegral();
        }

        @Override
        public PayloadExpression withInputs(java.util.Map<Integer, Integer> inputs) {
            return new Negate(operand.withInputs(inputs));
        }

        @Override
        public BigDecimal exact(Object[] values) {
            return operand.exact(values).negate();
        }

        @Override
        public double approximate(Object[] values) {
            return -operand.approximate(values);
        }

        @Override
        public int scale() {
            return operand.scale();
        }

        @Override
        public boolean isApproximate() {
            return operand.isApproximate();
        }

        @Override
        public String signature() {
            return "-(" + operand.signature() + ")";
        }

        @Override
        public String toString() {
            return operand instanceof Binary ? "-(" + operand + ")" : "-" + operand;
        }
    }
}
