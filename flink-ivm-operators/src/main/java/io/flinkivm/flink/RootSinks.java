package io.flinkivm.flink;

import io.flinkivm.core.plan.QHierarchicalPlan;
import io.flinkivm.core.plan.ViewTreePlan;
import io.flinkivm.flink.border.BorderSinkOperator;
import io.flinkivm.flink.qtree.QTreeSinkOperator;
import io.flinkivm.flink.sink.RootSinkSpec;
import io.flinkivm.flink.types.EpochEnd;
import io.flinkivm.flink.types.ResultRecord;
import io.flinkivm.flink.types.RootUpdate;
import org.apache.flink.annotation.Internal;
import org.apache.flink.streaming.api.operators.TwoInputStreamOperator;

/** The sink above the border of a view-tree plan: the q-tree sink for the q-hierarchical plan, else the border sink. */
@Internal
public final class RootSinks {
    private RootSinks() {}

    public static <T> TwoInputStreamOperator<RootUpdate<T>, EpochEnd, ResultRecord<T>> of(
            ViewTreePlan plan, RootSinkSpec<T> spec) {
        if (plan instanceof QHierarchicalPlan q) {
            return new QTreeSinkOperator<>(q, spec);
        }
        return new BorderSinkOperator<>(plan, spec);
    }
}
