package io.flinkivm.sql.translate;

import io.flinkivm.core.query.InvalidQueryException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.apache.calcite.avatica.util.TimeUnit;
import org.apache.calcite.sql.SqlBasicCall;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlDataTypeSpec;
import org.apache.calcite.sql.SqlIntervalQualifier;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.fun.SqlTrimFunction;

/** Compiles the scalar functions of a row's expressions ({@link RowFunction}): CAST, EXTRACT, COALESCE, ... */
final class RowFunctionCompiler {

    private final SqlErrors errors;
    private final RowExprCompiler compiler;

    RowFunctionCompiler(SqlErrors errors, RowExprCompiler compiler) {
        this.errors = errors;
        this.compiler = compiler;
    }

    RowExpr cast(SqlCall call) {
        RowExpr operand = compiler.expression(call.operand(0));
        SqlType target;
        try {
            // Calcite's parser takes Flink's STRING for a user-defined type and quotes it: `STRING`.
            target = SqlSchemas.type(
                    ((SqlDataTypeSpec) call.operand(1)).toString().replace("`", ""));
        } catch (InvalidQueryException | ClassCastException e) {
            throw errors.unsupported(
                    call.operand(1),
                    "CAST to " + call.operand(1),
                    "cast to a numeric, string, boolean, DATE, TIME or TIMESTAMP type");
        }
        return new RowExpr.Call(RowFunction.CAST, List.of(operand), target);
    }

    RowExpr extract(SqlCall call) {
        TimeUnit unit = ((SqlIntervalQualifier) call.operand(0)).getStartUnit();
        RowExpr operand = compiler.expression(call.operand(1));
        SqlType.Kind kind = operand.type().kind();
        if (kind != SqlType.Kind.DATE && kind != SqlType.Kind.TIME && kind != SqlType.Kind.TIMESTAMP) {
            throw errors.invalid(call, "EXTRACT takes a DATE, TIME or TIMESTAMP, not " + operand.type());
        }
        if (kind == SqlType.Kind.TIME && unit != TimeUnit.HOUR && unit != TimeUnit.MINUTE && unit != TimeUnit.SECOND) {
            throw errors.invalid(call, "EXTRACT(" + unit + ") of a TIME; a TIME has HOUR, MINUTE and SECOND");
        }
        RowFunction f = switch (unit) {
            case YEAR -> RowFunction.EXTRACT_YEAR;
            case QUARTER -> RowFunction.EXTRACT_QUARTER;
            case MONTH -> RowFunction.EXTRACT_MONTH;
            case DAY -> RowFunction.EXTRACT_DAY;
            case HOUR -> RowFunction.EXTRACT_HOUR;
            case MINUTE -> RowFunction.EXTRACT_MINUTE;
            case SECOND -> RowFunction.EXTRACT_SECOND;
            default ->
                throw errors.unsupported(
                        call.operand(0),
                        "EXTRACT(" + unit + ")",
                        "extract YEAR, QUARTER, MONTH, DAY, HOUR, MINUTE or SECOND");
        };
        return new RowExpr.Call(f, List.of(operand), SqlType.BIGINT);
    }

    RowExpr coalesce(SqlCall call) {
        List<RowExpr> args = new ArrayList<>();
        SqlType type = null;
        for (SqlNode operand : call.getOperandList()) {
            RowExpr e = compiler.expression(operand);
            type = compiler.branchType(type, e, operand);
            args.add(e);
        }
        if (type == null) {
            throw errors.invalid(call, "every argument of COALESCE is NULL");
        }
        return new RowExpr.Call(RowFunction.COALESCE, args, type);
    }

    RowExpr trim(SqlCall call) {
        SqlNode flag = call.operand(0);
        RowExpr chars = compiler.expression(call.operand(1));
        if (!(flag instanceof SqlLiteral l && l.getValue() == SqlTrimFunction.Flag.BOTH)
                || !(chars instanceof RowExpr.Literal c && " ".equals(c.value()))) {
            throw errors.unsupported(call, "TRIM of other characters or sides", "TRIM removes spaces on both sides");
        }
        return new RowExpr.Call(RowFunction.TRIM, List.of(string(call.operand(2))), SqlType.STRING);
    }

    private RowExpr string(SqlNode node) {
        RowExpr e = compiler.expression(node);
        if (e.type().kind() != SqlType.Kind.STRING && !RowExprCompiler.isNull(e)) {
            throw errors.invalid(node, SqlErrors.plain(node) + " is a " + e.type() + ", not a string");
        }
        return e;
    }

    RowExpr function(SqlCall call) {
        String name = call.getOperator().getName().toUpperCase(Locale.ROOT);
        List<SqlNode> ops = call.getOperandList();
        return switch (name) {
            case "UPPER", "LOWER" -> {
                arity(call, 1);
                yield new RowExpr.Call(
                        name.equals("UPPER") ? RowFunction.UPPER : RowFunction.LOWER,
                        List.of(string(ops.get(0))),
                        SqlType.STRING);
            }
            case "CHAR_LENGTH", "CHARACTER_LENGTH" -> {
                arity(call, 1);
                yield new RowExpr.Call(
                        RowFunction.CHAR_LENGTH, List.of(string(ops.get(0))), SqlType.of(SqlType.Kind.INT));
            }
            case "SUBSTRING" -> {
                List<RowExpr> args = new ArrayList<>();
                args.add(string(ops.get(0)));
                for (SqlNode n : ops.subList(1, ops.size())) {
                    RowExpr e = compiler.numeric(n);
                    if (!e.type().isInteger()) {
                        throw errors.invalid(n, "SUBSTRING takes integer positions");
                    }
                    args.add(e);
                }
                yield new RowExpr.Call(RowFunction.SUBSTRING, args, SqlType.STRING);
            }
            case "||", "CONCAT" -> {
                arity(call, 2);
                yield new RowExpr.Call(
                        RowFunction.CONCAT, List.of(string(ops.get(0)), string(ops.get(1))), SqlType.STRING);
            }
            case "ABS" -> {
                arity(call, 1);
                RowExpr e = compiler.numeric(ops.get(0));
                yield new RowExpr.Call(RowFunction.ABS, List.of(e), e.type());
            }
            case "MOD" -> {
                arity(call, 2);
                RowExpr a = compiler.numeric(ops.get(0));
                RowExpr b = compiler.numeric(ops.get(1));
                yield new RowExpr.Call(
                        RowFunction.MOD, List.of(a, b), SqlTypeRules.arithmetic('%', a.type(), b.type()));
            }
            default -> {
                if (call instanceof SqlBasicCall && call.getOperator().isAggregator()) {
                    throw errors.unsupported(call, "the aggregate " + name + " here", "aggregates go in SELECT");
                }
                throw errors.unsupported(
                        call,
                        SqlErrors.describe(call),
                        "a row's expressions use + - * / %, comparisons,"
                                + " AND, OR, NOT, IS [NOT] NULL, BETWEEN, IN, LIKE, CASE, CAST, EXTRACT, COALESCE, UPPER, LOWER,"
                                + " CHAR_LENGTH, TRIM, SUBSTRING, ||, ABS and MOD");
            }
        };
    }

    private void arity(SqlCall call, int n) {
        if (call.operandCount() != n) {
            throw errors.invalid(
                    call, call.getOperator().getName() + " takes " + n + " argument" + (n == 1 ? "" : "s"));
        }
    }
}
