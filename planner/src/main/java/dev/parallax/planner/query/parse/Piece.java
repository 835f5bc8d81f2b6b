package dev.parallax.planner.query.parse;

import java.util.List;

/** A node of the token tree the rewriter works on: a token, a parenthesised group, or rewritten text. */
sealed interface Piece {
    /** Appends this piece's text to {@code output}. */
    void emit(RewriteOutput output);

    record Leaf(SqlToken token) implements Piece {
        @Override
        public void emit(RewriteOutput output) {
            output.appendOriginal(token.text(), token.position());
        }
    }

    /** {@code ( children )} or {@code CASE children END}. */
    record Group(SqlToken open, List<Piece> children, SqlToken close) implements Piece {
        @Override
        public void emit(RewriteOutput output) {
            output.appendOriginal(open.text(), open.position());
            for (Piece child : children) {
                child.emit(output);
            }
            if (close != null) {
                output.appendOriginal(close.text(), close.position());
            }
        }
    }

    /** Generated text mixed with original pieces; generated text maps to {@code position}. */
    record Composite(List<Object> parts, int position) implements Piece {
        @Override
        public void emit(RewriteOutput output) {
            for (Object part : parts) {
                if (part instanceof Piece piece) {
                    piece.emit(output);
                } else {
                    output.appendGenerated((String) part, position);
                }
            }
        }
    }
}
