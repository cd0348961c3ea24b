package io.flinkivm.core.engine;

import io.flinkivm.core.engine.keys.KeyViolation;
import org.apache.flink.annotation.PublicEvolving;

/**
 * An insert that breaks a key its plan relies on ({@link io.flinkivm.core.plan.KeyedPlan}): it has the
 * key value of a stored row, with other values. The insert was rejected and changed nothing; the
 * message names the key and both rows.
 */
@PublicEvolving
public final class KeyViolationException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    private final transient KeyViolation violation;

    public KeyViolationException(KeyViolation violation) {
        super(violation.message());
        this.violation = violation;
    }

    /** The key, the rejected row and the stored one. */
    public KeyViolation violation() {
        return violation;
    }
}
