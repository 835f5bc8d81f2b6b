package dev.parallax.planner.query.convert;

import org.apache.calcite.plan.RelOptRuleCall;
import org.apache.calcite.plan.RelRule;
import org.apache.calcite.rel.core.RelFactories;
import org.apache.calcite.rel.rules.MultiJoin;
import org.apache.calcite.tools.RelBuilderFactory;

/**
 * Orders a {@link MultiJoin} of inner joins by cost ({@link JoinEnumerator}); MultiJoins with outer
 * joins or more than {@link JoinEnumerator#MAX_RELATIONS} inputs are left to the greedy
 * LoptOptimizeJoinRule that follows it in the join phase.
 */
public final class JoinEnumerationRule extends RelRule<RelRule.Config> {
    public static final JoinEnumerationRule INSTANCE = new JoinEnumerationRule(Config.DEFAULT);

    private JoinEnumerationRule(RelRule.Config config) {
        super(config);
    }

    @Override
    public void onMatch(RelOptRuleCall call) {
        MultiJoin multiJoin = call.rel(0);
        call.transformTo(JoinEnumerator.order(multiJoin, call.builder(), call.getMetadataQuery()));
    }

    /** Rule configuration: matches a MultiJoin the enumerator plans. */
    private record Config(RelBuilderFactory relBuilderFactory, String description, OperandTransform operandSupplier)
            implements RelRule.Config {
        static final Config DEFAULT = new Config(RelFactories.LOGICAL_BUILDER, "JoinEnumerationRule",
                operand -> operand.operand(MultiJoin.class).predicate(JoinEnumerator::applies).anyInputs());

        @Override
        public JoinEnumerationRule toRule() {
            return new JoinEnumerationRule(this);
        }

        @Override
        public Config withRelBuilderFactory(RelBuilderFactory factory) {
            return new Config(factory, description, operandSupplier);
        }

        @Override
        public Config withDescription(String newDescription) {
            return new Config(relBuilderFactory, newDescription, operandSupplier);
        }

        @Override
        public Config withOperandSupplier(OperandTransform transform) {
            return new Config(relBuilderFactory, description, transform);
        }
    }
}
