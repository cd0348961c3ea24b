package io.flinkivm.core.query;

import java.io.Serializable;
import org.apache.flink.annotation.PublicEvolving;

/** A term of an atom: a variable or a constant. */
@PublicEvolving
public sealed interface Term extends Serializable permits Variable, Constant {}
