package io.flinkivm.sql.translate;

/**
 * Flink SQL's result types of arithmetic (its {@code LogicalTypeMerging}): integers stay integers of
 * the wider type, a floating-point operand gives DOUBLE, and exact decimals get Flink's precision and
 * scale, reduced to precision 38 keeping at least 6 digits of scale where they would exceed it.
 */
final class SqlTypeRules {
    private static final int MINIMUM_ADJUSTED_SCALE = 6;

    private SqlTypeRules() {}

    /** The type of {@code a op b}, op one of {@code + - * / %}, for numeric a and b. */
    static SqlType arithmetic(char op, SqlType a, SqlType b) {
        if (a.isApproximate() || b.isApproximate()) {
            return SqlType.DOUBLE;
        }
        if (a.isInteger() && b.isInteger()) {
            return a.kind().ordinal() >= b.kind().ordinal() ? a : b;
        }
        int p1 = precision(a);
        int s1 = a.exactScale();
        int p2 = precision(b);
        int s2 = b.exactScale();
        return switch (op) {
            case '+', '-' -> {
                int scale = Math.max(s1, s2);
                yield adjusted(Math.max(p1 - s1, p2 - s2) + scale + 1, scale);
            }
            case '*' -> adjusted(p1 + p2 + 1, s1 + s2);
            case '/' -> {
                int scale = Math.max(MINIMUM_ADJUSTED_SCALE, s1 + p2 + 1);
                yield adjusted(p1 - s1 + s2 + scale, scale);
            }
            case '%' -> {
                int scale = Math.max(s1, s2);
                yield adjusted(Math.min(p1 - s1, p2 - s2) + scale, scale);
            }
            default -> throw new IllegalStateException("operator " + op);
        };
    }

    /** SUM's type: BIGINT for integers (flink-ivm never wraps), DECIMAL(38, s) for decimals. */
    static SqlType sum(SqlType argument) {
        return argument.isInteger() ? SqlType.BIGINT : SqlType.decimal(SqlType.MAX_PRECISION, argument.exactScale());
    }

    /** AVG's type, as Flink's: the argument's integer type, or DECIMAL(38, max(6, s)). */
    static SqlType avg(SqlType argument) {
        if (argument.isInteger()) {
            return argument;
        }
        SqlType division =
                arithmetic('/', SqlType.decimal(SqlType.MAX_PRECISION, argument.exactScale()), SqlType.decimal(20, 0));
        return SqlType.decimal(SqlType.MAX_PRECISION, division.scale());
    }

    /** The decimal precision of an exact type (an integer type's digits). */
    static int precision(SqlType t) {
        return switch (t.kind()) {
            case TINYINT -> 3;
            case SMALLINT -> 5;
            case INT -> 10;
            case BIGINT -> 19;
            case DECIMAL -> t.precision();
            default -> throw new IllegalArgumentException(t + " is not an exact numeric type");
        };
    }

    private static SqlType adjusted(int precision, int scale) {
        if (precision <= SqlType.MAX_PRECISION) {
            return SqlType.decimal(Math.max(1, precision), scale);
        }
        int digits = precision - scale;
        int minScale = Math.min(scale, MINIMUM_ADJUSTED_SCALE);
        return SqlType.decimal(SqlType.MAX_PRECISION, Math.max(SqlType.MAX_PRECISION - digits, minScale));
    }

    /** The common type of the branches of a CASE or COALESCE, or null if they have none. */
    static SqlType common(SqlType a, SqlType b) {
        if (a == null) {
            return b;
        }
        if (b == null) {
            return a;
        }
        if (a.isNumeric() && b.isNumeric()) {
            if (a.isApproximate() || b.isApproximate()) {
                return SqlType.DOUBLE;
            }
            if (a.isInteger() && b.isInteger()) {
                return a.kind().ordinal() >= b.kind().ordinal() ? a : b;
            }
            int scale = Math.max(a.exactScale(), b.exactScale());
            int digits = Math.max(precision(a) - a.exactScale(), precision(b) - b.exactScale());
            return adjusted(digits + scale, scale);
        }
        if (a.kind() == b.kind()) {
            return a.kind() == SqlType.Kind.TIMESTAMP && b.precision() > a.precision() ? b : a;
        }
        return null;
    }

    /** Whether values of the two types can be compared (numbers with numbers, dates with timestamps, ...). */
    static boolean comparable(SqlType a, SqlType b) {
        if (a.isNumeric() && b.isNumeric()) {
            return true;
        }
        boolean temporal = (a.kind() == SqlType.Kind.DATE || a.kind() == SqlType.Kind.TIMESTAMP)
                && (b.kind() == SqlType.Kind.DATE || b.kind() == SqlType.Kind.TIMESTAMP);
        return temporal || a.kind() == b.kind() && a.kind() != SqlType.Kind.UNSUPPORTED;
    }
}
