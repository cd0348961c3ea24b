package io.flinkivm.sql.translate;

import io.flinkivm.core.semiring.BooleanSemiring;
import io.flinkivm.core.semiring.Chain;
import io.flinkivm.core.semiring.ChainComponent;
import io.flinkivm.core.semiring.Component;
import io.flinkivm.core.semiring.LongComponent;
import io.flinkivm.core.semiring.NaturalSemiring;
import io.flinkivm.core.semiring.ProductSemiring;
import io.flinkivm.core.semiring.Semiring;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.IntFunction;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNumericLiteral;
import org.apache.calcite.sql.SqlSelectKeyword;

/**
 * Compiles the aggregates of a SELECT list into one payload: a natural count where COUNT(*) is all,
 * else a {@link ProductSemiring} whose components are shared by the aggregates that need them. A
 * SUM's argument is expanded into a sum of products of per-table factors, one integer component per
 * product (negative values exact); MIN and MAX of an expression of one table's row, of any ordered
 * type, are (min, max) over its type's chain ({@link ChainComponent}), and of a sum of per-table terms
 * min-plus or max-plus; a count of the rows whose argument is not NULL backs AVG, COUNT(column) and
 * SUM's NULL.
 */
final class AggregateCompiler {

    /**
     * The outcome: the semiring, each component's factor per alias, how each aggregate is read, and the
     * class values of the COUNT(DISTINCT ...) arguments, which join the head (the k-th distinct aggregate's
     * argument is {@code distinctValues.get(k)}).
     */
    record Compiled(
            Semiring<?> semiring,
            List<Factor[]> components,
            List<AggregateOutput> outputs,
            String text,
            List<Integer> distinctValues) {}

    /** Registers an expression of one alias's row as a class value ({@link TranslationBuilder#value}). */
    @FunctionalInterface
    interface Values {
        int value(int alias, SqlNode node);
    }

    /** A product of per-alias factors with a constant coefficient. */
    private record Term(BigDecimal coefficient, Map<Integer, List<SqlNode>> factors) {}

    private final Scope scope;
    private final SqlErrors errors;
    private final IntFunction<RowExprCompiler> compilers;
    private final Values values;
    private final List<Integer> distinctValues = new ArrayList<>();
    private final int aliasCount;
    private final Map<String, Integer> componentIds = new LinkedHashMap<>();
    private final List<Factor[]> components = new ArrayList<>();
    private final List<Component> kinds = new ArrayList<>();

    AggregateCompiler(Scope scope, SqlErrors errors, IntFunction<RowExprCompiler> compilers, Values values) {
        this.scope = scope;
        this.errors = errors;
        this.compilers = compilers;
        this.values = values;
        this.aliasCount = scope.aliases().size();
    }

    /** Whether {@code node} is an aggregate call (the parser leaves function calls unresolved). */
    static boolean isAggregate(SqlNode node) {
        if (!(node instanceof SqlCall call)) {
            return false;
        }
        return call.getOperator().isAggregator()
                || call.getKind() == SqlKind.FILTER
                || call.getKind() == SqlKind.OVER
                || call.getKind() == SqlKind.WITHIN_GROUP
                || KNOWN.contains(call.getOperator().getName().toUpperCase(Locale.ROOT));
    }

    private static final Set<String> KNOWN = Set.of(
            "COUNT",
            "SUM",
            "SUM0",
            "$SUM0",
            "MIN",
            "MAX",
            "AVG",
            "STDDEV",
            "STDDEV_POP",
            "STDDEV_SAMP",
            "VARIANCE",
            "VAR_POP",
            "VAR_SAMP",
            "COLLECT",
            "LISTAGG",
            "ARRAY_AGG",
            "FIRST_VALUE",
            "LAST_VALUE",
            "ANY_VALUE",
            "BIT_AND",
            "BIT_OR",
            "BIT_XOR",
            "EVERY",
            "BOOL_AND",
            "BOOL_OR",
            "COUNT_IF",
            "APPROX_COUNT_DISTINCT",
            "JSON_ARRAYAGG",
            "JSON_OBJECTAGG",
            "PERCENTILE_CONT",
            "PERCENTILE_DISC");

    /**
     * The payload for {@code aggregates} (calls, in SELECT order); {@code distinct} for SELECT DISTINCT
     * or GROUP BY without aggregates (Boolean), neither for a plain SELECT (a count per row copy).
     */
    Compiled compile(List<SqlNode> aggregates, boolean distinct) {
        if (aggregates.isEmpty()) {
            return distinct
                    ? new Compiled(
                            BooleanSemiring.INSTANCE, List.of(), List.of(), "no aggregate: distinct rows", List.of())
                    : new Compiled(
                            NaturalSemiring.INSTANCE,
                            List.of(),
                            List.of(),
                            "no aggregate: each row as often as it joins",
                            List.of());
        }
        List<AggregateOutput> outputs = new ArrayList<>();
        List<String> texts = new ArrayList<>();
        for (SqlNode node : aggregates) {
            outputs.add(aggregate((SqlCall) node));
            texts.add(SqlErrors.plain(node));
        }
        String text = String.join(", ", texts);
        if (components.isEmpty()) {
            return new Compiled(NaturalSemiring.INSTANCE, List.of(), outputs, text, List.copyOf(distinctValues));
        }
        return new Compiled(
                ProductSemiring.of(kinds), List.copyOf(components), outputs, text, List.copyOf(distinctValues));
    }

    private AggregateOutput aggregate(SqlCall call) {
        List<RowExpr> filter = List.of();
        int filterAlias = -1;
        if (call.getKind() == SqlKind.FILTER) {
            SqlNode condition = call.operand(1);
            Set<Integer> used = aliasesOf(condition);
            if (used.size() > 1) {
                throw errors.unsupported(
                        condition,
                        "FILTER (WHERE " + SqlErrors.plain(condition) + ")",
                        "an aggregate's filter is a condition on one table's row");
            }
            filterAlias = used.isEmpty() ? 0 : used.iterator().next();
            filter = List.of(compilers.apply(filterAlias).condition(condition));
            call = call.operand(0);
        }
        if (call.getKind() == SqlKind.OVER) {
            throw errors.unsupported(call, "OVER windows", "aggregate with GROUP BY");
        }
        if (call.getKind() == SqlKind.WITHIN_GROUP) {
            throw errors.unsupported(call, "WITHIN GROUP", "aggregate with COUNT, SUM, AVG, MIN or MAX");
        }
        String name = call.getOperator().getName().toUpperCase(Locale.ROOT);
        if (!name.equals("COUNT") && call.operandCount() != 1) {
            throw errors.invalid(call, name + " takes one argument");
        }
        if (call.getFunctionQuantifier() != null
                && call.getFunctionQuantifier().getValue() == SqlSelectKeyword.DISTINCT) {
            switch (name) {
                case "COUNT" -> {
                    return countDistinct(call, filter, filterAlias);
                }
                case "MIN", "MAX" -> {} // the extreme of the distinct values is the extreme of all of them
                default ->
                    throw errors.unsupported(
                            call,
                            name + "(DISTINCT ...)",
                            "of the aggregates over distinct values COUNT(DISTINCT ...) is maintained (and MIN and MAX,"
                                    + " where DISTINCT changes nothing); " + name + " adds every row's value");
            }
        }
        return switch (name) {
            case "COUNT" -> count(call, filter, filterAlias);
            case "SUM", "AVG" -> sum(call, name, filter, filterAlias);
            case "MIN", "MAX" -> extremum(call, name.equals("MIN"), filter, filterAlias);
            default ->
                throw errors.unsupported(call, "the aggregate " + name, "COUNT, SUM, AVG, MIN and MAX are supported");
        };
    }

    private AggregateOutput count(SqlCall call, List<RowExpr> filter, int filterAlias) {
        SqlNode arg = call.operandCount() == 1 ? call.operand(0) : null;
        if (call.operandCount() > 1) {
            throw errors.unsupported(call, "COUNT of several columns", "count one column, or *");
        }
        boolean star =
                arg == null || arg instanceof SqlIdentifier id && id.isStar() || arg instanceof SqlNumericLiteral;
        Map<Integer, List<RowExpr>> parts = star ? Map.of() : parts(List.of(arg));
        int count = nonNullCount(parts, filter, filterAlias);
        return new AggregateOutput(
                "COUNT", SqlType.BIGINT, count, new int[0], new BigDecimal[0], new int[0], BigDecimal.ZERO, null);
    }

    /**
     * COUNT(DISTINCT x), x an expression of one table's row: x joins the head (its class value is the
     * next distinct value), and the aggregate counts, per group, the values of x that some row with a
     * non-NULL x passing the FILTER clause derives: the pairs (group, x) whose component counting such
     * rows is not zero, folded per group after the view ({@link DistinctGroups}).
     */
    private AggregateOutput countDistinct(SqlCall call, List<RowExpr> filter, int filterAlias) {
        if (call.operandCount() != 1 || call.operand(0) instanceof SqlIdentifier id && id.isStar()) {
            throw errors.unsupported(
                    call,
                    "COUNT(DISTINCT ...) of " + (call.operandCount() == 1 ? "*" : "several values"),
                    "COUNT(DISTINCT x) counts the distinct values of one column or expression of one table's row");
        }
        SqlNode arg = call.operand(0);
        Set<Integer> used = aliasesOf(arg);
        if (used.size() != 1) {
            throw errors.unsupported(
                    arg,
                    "COUNT(DISTINCT " + SqlErrors.plain(arg) + ") "
                            + (used.isEmpty() ? "of a constant" : "over the tables " + aliasNames(used)),
                    "COUNT(DISTINCT x) counts the distinct values of a column or expression of one table's row");
        }
        int value = values.value(used.iterator().next(), arg);
        int distinct = distinctValues.size();
        distinctValues.add(value);
        Map<Integer, List<RowExpr>> parts = parts(List.of(arg));
        int count = nonNullCount(parts, filter, filterAlias);
        return new AggregateOutput(
                "COUNT DISTINCT",
                SqlType.BIGINT,
                count,
                new int[] {distinct},
                new BigDecimal[0],
                new int[0],
                BigDecimal.ZERO,
                null);
    }

    private AggregateOutput sum(SqlCall call, String name, List<RowExpr> filter, int filterAlias) {
        SqlNode arg = call.operand(0);
        SqlType type = typeOf(arg);
        if (!type.isExactNumeric()) {
            throw errors.unsupported(
                    arg,
                    name + " over " + type,
                    name
                            + " is maintained exactly, over integers and decimals; for DOUBLE or FLOAT use MIN or MAX, or cast to DECIMAL");
        }
        List<Term> expanded = expand(arg);
        Map<Integer, List<RowExpr>> parts = parts(List.of(arg));
        int[] terms = new int[expanded.size()];
        BigDecimal[] coefficients = new BigDecimal[expanded.size()];
        int[] scales = new int[expanded.size()];
        for (int k = 0; k < expanded.size(); k++) {
            Term t = expanded.get(k);
            Factor[] factors = new Factor[aliasCount];
            int scale = 0;
            for (int a = 0; a < aliasCount; a++) {
                List<RowExpr> conditions = conditions(parts.get(a), t.factors().get(a), filter, filterAlias == a, a);
                RowExpr value = product(t.factors().get(a), a);
                int s = value == null ? 0 : value.type().exactScale();
                scale += s;
                factors[a] = new Factor(LongComponent.INTEGER, value, s, conditions);
            }
            terms[k] = component(LongComponent.INTEGER, factors);
            coefficients[k] = t.coefficient();
            scales[k] = scale;
        }
        int count = nonNullCount(parts, filter, filterAlias);
        SqlType result = name.equals("SUM") ? SqlTypeRules.sum(type) : SqlTypeRules.avg(type);
        return new AggregateOutput(name, result, count, terms, coefficients, scales, BigDecimal.ZERO, null);
    }

    private AggregateOutput extremum(SqlCall call, boolean min, List<RowExpr> filter, int filterAlias) {
        SqlNode arg = call.operand(0);
        String name = min ? "MIN" : "MAX";
        Set<Integer> used = aliasesOf(arg);
        if (used.size() == 1) {
            return chainExtremum(arg, min, used.iterator().next(), filter, filterAlias);
        }
        SqlType type = typeOf(arg);
        if (!type.isNumeric()) {
            throw errors.unsupported(
                    arg,
                    name + " over " + type + " of several tables",
                    name + " of an expression of several tables is maintained over numbers (min-plus, max-plus);"
                            + " of one table's row, over any ordered type");
        }
        List<Term> expanded = expand(arg);
        RowExpr[] sums = new RowExpr[aliasCount];
        BigDecimal constant = BigDecimal.ZERO;
        for (Term t : expanded) {
            if (t.factors().size() > 1) {
                throw errors.unsupported(
                        arg,
                        "the product of " + aliasNames(t.factors().keySet()) + " in " + name,
                        name + " takes a sum of terms, each over the columns of one table (" + name
                                + "(a.x + b.y)), which the min-plus/max-plus payloads of the tables add up to");
            }
            if (t.factors().isEmpty()) {
                constant = constant.add(t.coefficient());
                continue;
            }
            int a = t.factors().keySet().iterator().next();
            RowExpr term = product(t.factors().get(a), a);
            if (t.coefficient().compareTo(BigDecimal.ONE) != 0) {
                RowExpr c = literal(t.coefficient());
                term = new RowExpr.Arithmetic('*', c, term, SqlTypeRules.arithmetic('*', c.type(), term.type()));
            }
            sums[a] = sums[a] == null
                    ? term
                    : new RowExpr.Arithmetic(
                            '+', sums[a], term, SqlTypeRules.arithmetic('+', sums[a].type(), term.type()));
        }
        boolean approximate = type.isApproximate();
        int scale = approximate ? 0 : type.exactScale();
        LongComponent kind = approximate
                ? (min ? LongComponent.MIN_DOUBLE : LongComponent.MAX_DOUBLE)
                : (min ? LongComponent.MIN : LongComponent.MAX);
        Map<Integer, List<RowExpr>> parts = parts(List.of(arg));
        Factor[] factors = new Factor[aliasCount];
        for (int a = 0; a < aliasCount; a++) {
            List<RowExpr> conditions = conditions(parts.get(a), null, filter, filterAlias == a, a);
            factors[a] = new Factor(kind, sums[a], scale, conditions);
        }
        int c = component(kind, factors);
        SqlType result = approximate ? SqlType.DOUBLE : type;
        return new AggregateOutput(
                name, result, 0, new int[] {c}, new BigDecimal[] {BigDecimal.ONE}, new int[] {scale}, constant, kind);
    }

    /**
     * MIN or MAX of an expression of {@code alias}'s row: (min, max) or (max, min) over the chain of its
     * type, the row's value there and the one in the other tables' rows. The result keeps the type.
     */
    private AggregateOutput chainExtremum(SqlNode arg, boolean min, int alias, List<RowExpr> filter, int filterAlias) {
        String name = min ? "MIN" : "MAX";
        RowExpr value = compilers.apply(alias).compile(arg);
        SqlType type = value.type();
        Chain chain = chain(type);
        if (chain == null) {
            throw errors.unsupported(
                    arg,
                    name + " over " + type,
                    name + " is maintained over TINYINT, SMALLINT, INT, BIGINT, DECIMAL, FLOAT, DOUBLE, CHAR,"
                            + " VARCHAR, STRING, BOOLEAN, DATE, TIME and TIMESTAMP");
        }
        ChainComponent kind = min ? ChainComponent.min(chain) : ChainComponent.max(chain);
        Map<Integer, List<RowExpr>> parts = parts(List.of(arg));
        Factor[] factors = new Factor[aliasCount];
        for (int a = 0; a < aliasCount; a++) {
            List<RowExpr> conditions =
                    conditions(parts.get(a), a == alias ? List.of(arg) : null, filter, filterAlias == a, a);
            factors[a] = new Factor(kind, a == alias ? value : null, 0, conditions);
        }
        int c = component(kind, factors);
        return new AggregateOutput(
                name, type, 0, new int[] {c}, new BigDecimal[] {BigDecimal.ONE}, new int[] {0}, BigDecimal.ZERO, kind);
    }

    /** The chain of a type's values in its SQL order, named by the type; null for a type without one. */
    static Chain chain(SqlType type) {
        return switch (type.kind()) {
            case TINYINT, SMALLINT, INT, BIGINT -> Chain.of(Chain.Kind.INTEGER, type.name());
            case DECIMAL -> Chain.decimal(type.precision(), type.scale(), type.name());
            case FLOAT, DOUBLE -> Chain.of(Chain.Kind.DOUBLE, type.name());
            case STRING -> Chain.of(Chain.Kind.STRING, type.name());
            case BOOLEAN -> Chain.of(Chain.Kind.BOOLEAN, type.name());
            case DATE -> Chain.of(Chain.Kind.DATE, type.name());
            case TIME -> Chain.of(Chain.Kind.TIME, type.name());
            case TIMESTAMP ->
                Chain.of(type.precision() <= 6 ? Chain.Kind.TIMESTAMP : Chain.Kind.TIMESTAMP_NANOS, type.name());
            case UNSUPPORTED -> null;
        };
    }

    // ---- the count of rows with a non-NULL argument ----

    /** The component that counts rows whose argument's parts are not NULL: the hidden count if none can be. */
    private int nonNullCount(Map<Integer, List<RowExpr>> parts, List<RowExpr> filter, int filterAlias) {
        boolean nullable = !filter.isEmpty();
        for (List<RowExpr> ps : parts.values()) {
            for (RowExpr p : ps) {
                nullable |= p.nullable();
            }
        }
        if (!nullable) {
            return 0;
        }
        Factor[] factors = new Factor[aliasCount];
        for (int a = 0; a < aliasCount; a++) {
            factors[a] = new Factor(
                    LongComponent.NATURAL, null, 0, conditions(parts.get(a), null, filter, filterAlias == a, a));
        }
        return component(LongComponent.NATURAL, factors);
    }

    /** The conditions for a row of alias {@code a}: its parts not NULL (those outside {@code inValue}), the filter. */
    private List<RowExpr> conditions(
            List<RowExpr> parts, List<SqlNode> inValue, List<RowExpr> filter, boolean filtered, int a) {
        List<RowExpr> out = new ArrayList<>();
        if (filtered) {
            out.addAll(filter);
        }
        if (parts != null) {
            Set<String> inside = new java.util.HashSet<>();
            if (inValue != null) {
                for (SqlNode f : inValue) {
                    inside.add(compilers.apply(a).compile(f).text());
                }
            }
            for (RowExpr p : parts) {
                // A part inside the value makes the value NULL, and so the contribution zero, by itself.
                if (p.nullable() && !inside.contains(p.text())) {
                    out.add(new RowExpr.Is(p, null, true));
                }
            }
        }
        return out;
    }

    private int component(Component kind, Factor[] factors) {
        StringBuilder key = new StringBuilder(kind.label());
        for (Factor f : factors) {
            key.append('|').append(f.signature());
        }
        Integer known = componentIds.get(key.toString());
        if (known != null) {
            return known;
        }
        components.add(factors);
        kinds.add(kind);
        componentIds.put(key.toString(), components.size());
        return components.size();
    }

    // ---- expansion into sums of products of per-alias factors ----

    /** The argument as a sum of products, each of constants and of per-alias factors. */
    private List<Term> expand(SqlNode node) {
        Set<Integer> used = aliasesOf(node);
        if (used.isEmpty()) {
            return List.of(new Term(constant(node), Map.of()));
        }
        if (used.size() == 1) {
            return List.of(new Term(BigDecimal.ONE, Map.of(used.iterator().next(), List.of(node))));
        }
        switch (node.getKind()) {
            case PLUS, MINUS -> {
                List<Term> out = new ArrayList<>(expand(((SqlCall) node).operand(0)));
                List<Term> right = expand(((SqlCall) node).operand(1));
                out.addAll(node.getKind() == SqlKind.MINUS ? negated(right) : right);
                return out;
            }
            case MINUS_PREFIX -> {
                return negated(expand(((SqlCall) node).operand(0)));
            }
            case PLUS_PREFIX -> {
                return expand(((SqlCall) node).operand(0));
            }
            case TIMES -> {
                List<Term> out = new ArrayList<>();
                for (Term l : expand(((SqlCall) node).operand(0))) {
                    for (Term r : expand(((SqlCall) node).operand(1))) {
                        Map<Integer, List<SqlNode>> factors = new java.util.TreeMap<>();
                        for (Term t : List.of(l, r)) {
                            t.factors()
                                    .forEach((a, f) -> factors.computeIfAbsent(a, k -> new ArrayList<>())
                                            .addAll(f));
                        }
                        out.add(new Term(l.coefficient().multiply(r.coefficient()), factors));
                    }
                }
                return out;
            }
            default ->
                throw errors.unsupported(
                        node,
                        SqlErrors.describe(node) + " over the tables " + aliasNames(used),
                        "an aggregate's argument combines the tables with +, - and *; anything else ("
                                + SqlErrors.describe(node) + ") must be over one table");
        }
    }

    private static List<Term> negated(List<Term> terms) {
        List<Term> out = new ArrayList<>();
        for (Term t : terms) {
            out.add(new Term(t.coefficient().negate(), t.factors()));
        }
        return out;
    }

    private BigDecimal constant(SqlNode node) {
        RowExpr e = compilers.apply(0).compile(node);
        if (e instanceof RowExpr.Literal l && l.value() instanceof Number n) {
            return SqlValues.decimal(n instanceof Double d ? BigDecimal.valueOf(d) : n);
        }
        throw errors.unsupported(node, "the constant " + SqlErrors.plain(node) + " in an aggregate", "use numbers");
    }

    private static RowExpr literal(BigDecimal v) {
        return v.scale() <= 0
                ? new RowExpr.Literal(v.longValueExact(), SqlType.BIGINT)
                : new RowExpr.Literal(v, SqlType.decimal(Math.max(v.precision(), v.scale()), v.scale()));
    }

    /** The product of an alias's factors as one expression, or null for none. */
    private RowExpr product(List<SqlNode> factors, int alias) {
        if (factors == null || factors.isEmpty()) {
            return null;
        }
        RowExpr out = null;
        for (SqlNode f : factors) {
            RowExpr e = compilers.apply(alias).compile(f);
            if (!e.type().isNumeric()) {
                throw errors.invalid(f, SqlErrors.plain(f) + " is a " + e.type() + ", not a number");
            }
            out = out == null
                    ? e
                    : new RowExpr.Arithmetic('*', out, e, SqlTypeRules.arithmetic('*', out.type(), e.type()));
        }
        return out;
    }

    /** Per alias, the maximal parts of the arguments that use only its columns. */
    private Map<Integer, List<RowExpr>> parts(List<SqlNode> arguments) {
        Map<Integer, List<RowExpr>> out = new java.util.TreeMap<>();
        for (SqlNode arg : arguments) {
            collectParts(arg, out);
        }
        return out;
    }

    private void collectParts(SqlNode node, Map<Integer, List<RowExpr>> out) {
        Set<Integer> used = aliasesOf(node);
        if (used.size() == 1) {
            int a = used.iterator().next();
            out.computeIfAbsent(a, k -> new ArrayList<>())
                    .add(compilers.apply(a).compile(node));
        } else if (used.size() > 1 && node instanceof SqlCall call) {
            for (SqlNode operand : call.getOperandList()) {
                if (operand != null) {
                    collectParts(operand, out);
                }
            }
        }
    }

    /** The SQL type of an argument over several tables, combined as Flink types arithmetic. */
    private SqlType typeOf(SqlNode node) {
        Set<Integer> used = aliasesOf(node);
        if (used.size() <= 1) {
            return compilers
                    .apply(used.isEmpty() ? 0 : used.iterator().next())
                    .compile(node)
                    .type();
        }
        SqlCall call = (SqlCall) node;
        return switch (node.getKind()) {
            case PLUS -> arithmetic('+', call);
            case MINUS -> arithmetic('-', call);
            case TIMES -> arithmetic('*', call);
            case MINUS_PREFIX, PLUS_PREFIX -> typeOf(call.operand(0));
            default -> {
                expand(node);
                throw new IllegalStateException("expand refuses " + node);
            }
        };
    }

    /** The type of {@code a op b} over several tables, whose operands must be numbers. */
    private SqlType arithmetic(char op, SqlCall call) {
        SqlType[] types = new SqlType[2];
        for (int i = 0; i < 2; i++) {
            types[i] = typeOf(call.operand(i));
            if (!types[i].isNumeric()) {
                throw errors.invalid(
                        call.operand(i), SqlErrors.plain(call.operand(i)) + " is a " + types[i] + ", not a number");
            }
        }
        return SqlTypeRules.arithmetic(op, types[0], types[1]);
    }

    private Set<Integer> aliasesOf(SqlNode node) {
        return scope.aliasesOf(node);
    }

    private String aliasNames(Set<Integer> aliases) {
        List<String> names = new ArrayList<>();
        for (int a : aliases) {
            names.add(scope.alias(a).name());
        }
        return String.join(" and ", names);
    }

    @Override
    public String toString() {
        return "AggregateCompiler" + Arrays.toString(kinds.toArray());
    }
}
