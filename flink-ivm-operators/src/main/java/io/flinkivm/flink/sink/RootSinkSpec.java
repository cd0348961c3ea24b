package io.flinkivm.flink.sink;

import io.flinkivm.core.semiring.Semiring;
import io.flinkivm.flink.common.StateTtl;
import io.flinkivm.flink.common.WindowClose;
import io.flinkivm.flink.types.DeadLetter;
import io.flinkivm.flink.types.RootUpdate;
import java.io.Serializable;
import org.apache.flink.annotation.Internal;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.util.OutputTag;

/**
 * What a sink above the border is given besides its plan ({@code RootSinks.of}).
 *
 * @param semiring the payloads' semiring
 * @param payloadType the payloads' type
 * @param inputType the root updates' type
 * @param deadLetters where an update that cannot be applied goes, with the reason
 * @param changelog emit the changed result tuples at each trigger instead of the whole result
 * @param updateBefore in changelog mode, emit an update's old payload ({@code -U}) before its new one
 * @param managedState keep the state in Flink's managed keyed state even on the heap backend
 * @param stateTtl expire keyed state entries not written for this long ({@link StateTtl#NONE}: never)
 * @param windowClose when a key's state goes, for a sink keyed by a window variable; null: kept
 * @param finalOnly in changelog mode, emit a window's groups only once it closed ({@code WindowEmit.FINAL})
 */
@Internal
public record RootSinkSpec<T>(
        Semiring<T> semiring,
        TypeInformation<T> payloadType,
        TypeInformation<RootUpdate<T>> inputType,
        OutputTag<DeadLetter> deadLetters,
        boolean changelog,
        boolean updateBefore,
        boolean managedState,
        StateTtl stateTtl,
        WindowClose windowClose,
        boolean finalOnly)
        implements Serializable {
    private static final long serialVersionUID = 1L;
}
