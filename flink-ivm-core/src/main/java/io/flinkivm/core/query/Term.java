package io.flinkivm.core.query;

import java.io.Serializable;

/** A term of an atom: a variable or a constant. */
public sealed interface Term extends Serializable permits Variable, Constant {}
