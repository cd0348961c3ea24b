package io.flinkivm.sql.rows;

import io.flinkivm.sql.translate.SqlTable;
import io.flinkivm.sql.translate.SqlTranslation;
import io.flinkivm.sql.translate.SqlType;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.flink.annotation.Internal;
import org.apache.flink.table.api.DataTypes;
import org.apache.flink.table.api.ExplainDetail;
import org.apache.flink.table.api.Expressions;
import org.apache.flink.table.api.SqlParserException;
import org.apache.flink.table.api.Table;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.table.api.TableException;
import org.apache.flink.table.api.ValidationException;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;
import org.apache.flink.table.catalog.Column;
import org.apache.flink.table.catalog.UniqueConstraint;
import org.apache.flink.table.catalog.WatermarkSpec;
import org.apache.flink.table.types.DataType;
import org.apache.flink.table.types.logical.DecimalType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.TimeType;
import org.apache.flink.table.types.logical.TimestampType;

/** Between Flink's Table API and the SQL front end: table schemas in, result types out. */
@Internal
public final class FlinkTables {
    private FlinkTables() {}

    /** The table at {@code path} in {@code tEnv}'s catalogs, or null if there is none. */
    public static Table lookup(StreamTableEnvironment tEnv, List<String> path) {
        try {
            return tEnv.from(quote(path));
        } catch (ValidationException e) {
            return null;
        }
    }

    /**
     * Whether {@code table}'s changelog is insert-only, as Flink's planner derives it (the changelog mode
     * of the optimized plan's root: {@code [I]}); a table whose rows may be deleted or updated (from
     * {@code fromChangelogStream}, an upsert or CDC connector) is not.
     */
    public static boolean isInsertOnly(Table table) {
        String plan = table.explain(ExplainDetail.CHANGELOG_MODE);
        int optimized = plan.indexOf("== Optimized Physical Plan ==");
        Matcher m = CHANGELOG_MODE.matcher(optimized < 0 ? plan : plan.substring(optimized));
        return m.find() && m.group(1).equals("I");
    }

    private static final Pattern CHANGELOG_MODE = Pattern.compile("changelogMode=\\[([A-Z,]*)\\]");

    /**
     * Types the expressions flink-ivm leaves to Flink as Flink does: the type of {@code SELECT <expression> FROM
     * <table>} over the table at the path in {@code tEnv} (with every function of {@code tEnv}: Flink's own and
     * those registered in it).
     */
    public static SqlTranslation.ExpressionTyper typer(TableEnvironment tEnv) {
        Map<List<String>, Table> tables = new HashMap<>();
        return (path, expression) -> {
            Table table = tables.computeIfAbsent(path, p -> {
                try {
                    return tEnv.from(quote(p));
                } catch (ValidationException e) {
                    throw new IllegalArgumentException("no table " + String.join(".", p) + ": " + reason(e));
                }
            });
            LogicalType type;
            try {
                type = table.select(Expressions.callSql(expression))
                        .getResolvedSchema()
                        .getColumns()
                        .get(0)
                        .getDataType()
                        .getLogicalType();
            } catch (ValidationException | SqlParserException | TableException e) {
                throw new IllegalArgumentException(reason(e));
            }
            return new SqlTable.Column(expression, type(type), type.isNullable());
        };
    }

    /** Flink's reason for an error: the first line of its innermost message, without the position in the expression. */
    public static String reason(Throwable e) {
        Throwable inner = e;
        while (inner.getCause() != null && inner.getCause().getMessage() != null) {
            inner = inner.getCause();
        }
        String m = String.valueOf(inner.getMessage()).strip();
        int cut = m.indexOf('\n');
        m = cut < 0 ? m : m.substring(0, cut);
        return POSITION.matcher(m).replaceFirst("");
    }

    private static final Pattern POSITION = Pattern.compile("^From line \\d+, column \\d+ to line \\d+, column \\d+: ");

    /** {@code `a`.`b`}: a path as Flink SQL reads it. */
    static String quote(List<String> path) {
        StringBuilder sb = new StringBuilder();
        for (String part : path) {
            sb.append(sb.length() == 0 ? "" : ".")
                    .append('`')
                    .append(part.replace("`", "``"))
                    .append('`');
        }
        return sb.toString();
    }

    /**
     * The schema of a Flink table for name resolution: columns, their nullability, the declared primary
     * key, the event-time attribute (its first watermark's rowtime column).
     */
    public static SqlTable schema(String name, Table table) {
        List<SqlTable.Column> columns = new ArrayList<>();
        for (Column c : table.getResolvedSchema().getColumns()) {
            LogicalType type = c.getDataType().getLogicalType();
            columns.add(new SqlTable.Column(c.getName(), type(type), type.isNullable()));
        }
        List<String> key = table.getResolvedSchema()
                .getPrimaryKey()
                .map(UniqueConstraint::getColumns)
                .orElse(List.of());
        List<WatermarkSpec> watermarks = table.getResolvedSchema().getWatermarkSpecs();
        String time = watermarks.isEmpty() ? null : watermarks.get(0).getRowtimeAttribute();
        SqlTable out = new SqlTable(name, columns, key);
        return time != null
                        && out.indexOf(time) >= 0
                        && out.columns().get(out.indexOf(time)).type().kind() == SqlType.Kind.TIMESTAMP
                ? out.withTimeAttribute(time)
                : out;
    }

    /** The SQL front end's view of a Flink logical type. */
    static SqlType type(LogicalType t) {
        return switch (t.getTypeRoot()) {
            case TINYINT -> SqlType.of(SqlType.Kind.TINYINT);
            case SMALLINT -> SqlType.of(SqlType.Kind.SMALLINT);
            case INTEGER -> SqlType.of(SqlType.Kind.INT);
            case BIGINT -> SqlType.BIGINT;
            case DECIMAL -> SqlType.decimal(((DecimalType) t).getPrecision(), ((DecimalType) t).getScale());
            case FLOAT -> SqlType.of(SqlType.Kind.FLOAT);
            case DOUBLE -> SqlType.DOUBLE;
            case CHAR, VARCHAR -> SqlType.STRING.named(t.copy(true).asSummaryString());
            case BOOLEAN -> SqlType.BOOLEAN;
            case DATE -> SqlType.of(SqlType.Kind.DATE);
            case TIME_WITHOUT_TIME_ZONE -> SqlType.time(((TimeType) t).getPrecision());
            case TIMESTAMP_WITHOUT_TIME_ZONE -> SqlType.timestamp(((TimestampType) t).getPrecision());
            default -> SqlType.unsupported(t.copy(true).asSummaryString());
        };
    }

    /** The Flink data type of a result column. */
    public static DataType dataType(SqlType t) {
        return switch (t.kind()) {
            case TINYINT -> DataTypes.TINYINT();
            case SMALLINT -> DataTypes.SMALLINT();
            case INT -> DataTypes.INT();
            case BIGINT -> DataTypes.BIGINT();
            case DECIMAL -> DataTypes.DECIMAL(t.precision(), t.scale());
            case FLOAT -> DataTypes.FLOAT();
            case DOUBLE -> DataTypes.DOUBLE();
            case STRING -> DataTypes.STRING();
            case BOOLEAN -> DataTypes.BOOLEAN();
            case DATE -> DataTypes.DATE();
            case TIME -> DataTypes.TIME(t.precision());
            case TIMESTAMP -> DataTypes.TIMESTAMP(t.precision());
            case UNSUPPORTED -> throw new IllegalStateException("no result column of type " + t);
        };
    }
}
