package dev.parallax.planner.query.parse;

import dev.parallax.planner.query.function.ExtractFunctions;
import dev.parallax.planner.query.parse.SqlToken.Kind;

import java.util.ArrayList;
import java.util.List;

/**
 * {@code extract(field FROM value)} becomes {@code pg_extract('field', value)}
 * ({@link ExtractFunctions}): numeric with the field's scale, as PostgreSQL 14 and later, where
 * Calcite's EXTRACT is a bigint; the field is a word or a string ({@code extract('year' from x)}),
 * in any of PostgreSQL's spellings.
 */
final class ExtractRewrite {
    private ExtractRewrite() {
    }

    static List<Piece> apply(List<Piece> pieces) {
        List<Piece> result = new ArrayList<>(pieces.size());
        for (int index = 0; index < pieces.size(); index++) {
            Piece piece = pieces.get(index);
            int arguments = PostgresDialectRewriter.skipSpaces(pieces, index + 1);
            if (!PostgresDialectRewriter.isWord(piece, "extract") || arguments >= pieces.size()
                    || !(pieces.get(arguments) instanceof Piece.Group call && call.open().kind() == Kind.LEFT_PARENTHESIS)) {
                result.add(piece);
                continue;
            }
            List<Piece> children = call.children();
            int fieldIndex = PostgresDialectRewriter.skipSpaces(children, 0);
            int from = PostgresDialectRewriter.skipSpaces(children, fieldIndex + 1);
            if (from >= children.size() || !(children.get(fieldIndex) instanceof Piece.Leaf field)
                    || !(field.token().kind() == Kind.WORD || field.token().kind() == Kind.STRING)
                    || !PostgresDialectRewriter.isWord(children.get(from), "from")) {
                result.add(piece);
                continue;
            }
            String name = field.token().kind() == Kind.STRING ? field.token().stringValue() : field.token().text();
            List<Object> parts = new ArrayList<>();
            parts.add("pg_extract('" + ExtractFunctions.field(name).replace("'", "''") + "', ");
            parts.addAll(children.subList(PostgresDialectRewriter.skipSpaces(children, from + 1), children.size()));
            parts.add(")");
            result.add(new Piece.Composite(parts, ((Piece.Leaf) piece).token().position()));
            index = arguments;
        }
        return result;
    }
}
