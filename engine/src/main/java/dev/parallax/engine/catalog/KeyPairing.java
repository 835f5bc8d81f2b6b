package dev.parallax.engine.catalog;

import dev.parallax.engine.type.DataType;
import dev.parallax.engine.type.TypeKind;

/**
 * How a foreign key compares one referencing column with the referenced column it is paired with,
 * after PostgreSQL 15's rule (ATAddForeignKeyConstraint): the pair is accepted when the referenced
 * key's btree operator family has an equality operator between the two types (integer_ops over
 * smallint, integer and bigint; float_ops over real and double; datetime_ops over date, timestamp
 * and timestamptz), or when the referencing type casts implicitly to the referenced one (numbers to
 * numeric and to floats, numeric of any scale to numeric, character types to text and to
 * character(n), bit and bit varying to each other); any other pair is 42804.
 */
public enum KeyPairing {
    /**
     * The referencing value, as it is held, is a key of the referenced type with the referenced
     * type's equality: the two types hold values alike (one kind; integers of any width; real in
     * double precision; text, varchar and char(n) compared as the referenced type compares).
     */
    SAME,
    /**
     * The referencing value is converted to the referenced type first (numeric of another scale,
     * integers to numeric or floats, char(n) to text without trailing blanks, date to timestamp):
     * a value the referenced type cannot hold exactly equals none of its keys.
     */
    CONVERTED,
    /**
     * PostgreSQL accepts the pair but compares through the session's TimeZone (timestamp with time
     * zone against timestamp or date), compares arrays of one element type with two modifiers
     * (numeric of two scales, char of two lengths) element by element, or compares intervals held
     * in months with intervals held in microseconds: 0A000 here.
     */
    NOT_SUPPORTED,
    /** No equality operator between the types in the referenced key's operator family: PostgreSQL's 42804. */
    INCOMPATIBLE;

    /** The pairing of a referencing column of type {@code referencing} with a referenced column of type {@code referenced}. */
    public static KeyPairing of(DataType referencing, DataType referenced) {
        TypeKind from = referencing.kind();
        TypeKind to = referenced.kind();
        if (from == to) {
            return switch (from) {
                case DECIMAL -> referencing.scale() == referenced.scale() ? SAME : CONVERTED;
                case ARRAY -> arrays(referencing.element(), referenced.element());
                default -> SAME;
            };
        }
        if (isInteger(from) && isInteger(to)) {
            return SAME;
        }
        if (from == TypeKind.REAL && to == TypeKind.DOUBLE) {
            // A real is held as the double it is: float84eq compares (double) real with the double.
            return SAME;
        }
        if ((isInteger(from) || from == TypeKind.DECIMAL) && (to == TypeKind.DECIMAL || to == TypeKind.REAL || to == TypeKind.DOUBLE)
                || from == TypeKind.DOUBLE && to == TypeKind.REAL) {
            return CONVERTED;
        }
        if (from.isText() && to.isText()) {
            // Text and varchar share text_ops; either casts implicitly to character(n), whose equality ignores trailing
            // blanks (the referenced index's). Only character(n) to text or varchar drops them first (rtrim).
            return from == TypeKind.CHAR ? CONVERTED : SAME;
        }
        if (from.isBitString() && to.isBitString()) {
            return SAME;
        }
        if (from == TypeKind.DATE && to == TypeKind.TIMESTAMP || from == TypeKind.TIMESTAMP && to == TypeKind.DATE) {
            return CONVERTED;
        }
        if (from == TypeKind.TIMESTAMPTZ && (to == TypeKind.DATE || to == TypeKind.TIMESTAMP)
                || to == TypeKind.TIMESTAMPTZ && (from == TypeKind.DATE || from == TypeKind.TIMESTAMP)) {
            return NOT_SUPPORTED;
        }
        if (isInterval(from) && isInterval(to)) {
            // One PostgreSQL type held two ways (months, microseconds), equal across them at 30 days a month.
            return NOT_SUPPORTED;
        }
        return INCOMPATIBLE;
    }

    /** Arrays compare only with arrays of their own element type (PostgreSQL's anyarray resolution); modifiers aside. */
    private static KeyPairing arrays(DataType referencing, DataType referenced) {
        if (referencing.equals(referenced)) {
            return SAME;
        }
        if (referencing.kind() != referenced.kind()) {
            return INCOMPATIBLE;
        }
        // Element bytes of numeric and character(n) depend on the modifier (scale, blank padding); the others' do not.
        return referencing.kind() == TypeKind.DECIMAL || referencing.kind() == TypeKind.CHAR || referencing.kind() == TypeKind.ARRAY
                ? NOT_SUPPORTED : SAME;
    }

    private static boolean isInterval(TypeKind kind) {
        return kind == TypeKind.INTERVAL_YEAR_MONTH || kind == TypeKind.INTERVAL_DAY_TIME;
    }

    private static boolean isInteger(TypeKind kind) {
        return kind == TypeKind.SMALLINT || kind == TypeKind.INTEGER || kind == TypeKind.BIGINT;
    }
}
