package dev.parallax.engine.expr;

import dev.parallax.engine.type.DataType;

/**
 * A scalar expression of a physical plan: an immutable description that the engine compiles into
 * a vectorized evaluator. The planner produces these from Calcite's RexNodes; every node carries
 * its result type, and argument types are already those the function expects (the planner adds
 * the {@link Cast}s), except that DECIMAL arguments of arithmetic and comparisons may differ in
 * scale: the engine aligns scales itself.
 */
public sealed interface Expr permits ColumnRef, Literal, Parameter, Call, Cast, Case, InList {
    DataType type();
}
