package io.flinkivm.sql.translate;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/** Walks of {@link RowExpr} trees. */
final class RowExprs {
    private RowExprs() {}

    /** The direct operands of an expression. */
    static List<RowExpr> operands(RowExpr e) {
        if (e instanceof RowExpr.Arithmetic a) {
            return List.of(a.left(), a.right());
        } else if (e instanceof RowExpr.Negate n) {
            return List.of(n.operand());
        } else if (e instanceof RowExpr.DateShift d) {
            return List.of(d.operand());
        } else if (e instanceof RowExpr.Compare c) {
            return List.of(c.left(), c.right());
        } else if (e instanceof RowExpr.Junction j) {
            return j.operands();
        } else if (e instanceof RowExpr.Not n) {
            return List.of(n.operand());
        } else if (e instanceof RowExpr.Is i) {
            return List.of(i.operand());
        } else if (e instanceof RowExpr.In i) {
            return List.of(i.operand());
        } else if (e instanceof RowExpr.Like l) {
            return List.of(l.operand());
        } else if (e instanceof RowExpr.Case c) {
            List<RowExpr> out = new ArrayList<>(c.conditions());
            out.addAll(c.values());
            out.add(c.otherwise());
            return out;
        } else if (e instanceof RowExpr.Call c) {
            return c.arguments();
        }
        return List.of();
    }

    /** Adds the indexes of the columns {@code e} reads to {@code out}. */
    static void columns(RowExpr e, Set<Integer> out) {
        if (e instanceof RowExpr.Column c) {
            out.add(c.index());
        }
        for (RowExpr operand : operands(e)) {
            columns(operand, out);
        }
    }

    /** Whether {@code e} reads a column. */
    static boolean usesColumns(RowExpr e) {
        if (e instanceof RowExpr.Column) {
            return true;
        }
        for (RowExpr operand : operands(e)) {
            if (usesColumns(operand)) {
                return true;
            }
        }
        return false;
    }
}
