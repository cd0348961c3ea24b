package io.flinkivm.flink.runtime;

import io.flinkivm.core.plan.QHierarchicalPlan;
import io.flinkivm.core.plan.ViewTreePlan;
import io.flinkivm.core.semiring.Semiring;
import io.flinkivm.flink.types.DeadLetter;
import io.flinkivm.flink.types.EpochEnd;
import io.flinkivm.flink.types.ResultRecord;
import io.flinkivm.flink.types.RootUpdate;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.streaming.api.operators.TwoInputStreamOperator;
import org.apache.flink.util.OutputTag;

/** The sink above the border of a view-tree plan: the q-tree sink for the q-hierarchical plan, else the border sink. */
public final class RootSinks {
    private RootSinks() {}

    /**
     * @param changelog emit the changed result tuples at each trigger instead of the whole result
     * @param updateBefore in changelog mode, emit an update's old payload ({@code -U}) before its new one
     * @param managedState keep the state in Flink's managed keyed state even on the heap backend
     */
    public static <T> TwoInputStreamOperator<RootUpdate<T>, EpochEnd, ResultRecord<T>> of(
            ViewTreePlan plan,
            Semiring<T> semiring,
            TypeInformation<T> payloadType,
            TypeInformation<RootUpdate<T>> inputType,
            OutputTag<DeadLetter> deadLetters,
            boolean changelog,
            boolean updateBefore,
            boolean managedState) {
        if (plan instanceof QHierarchicalPlan q) {
            return new QTreeSinkOperator<>(
                    q, semiring, payloadType, inputType, deadLetters, changelog, updateBefore, managedState);
        }
        return new BorderSinkOperator<>(
                plan, semiring, payloadType, inputType, deadLetters, changelog, updateBefore, managedState);
    }
}
