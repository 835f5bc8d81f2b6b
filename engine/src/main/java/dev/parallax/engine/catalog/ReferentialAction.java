package dev.parallax.engine.catalog;

/**
 * What a foreign key does to the referencing rows when the referenced key is deleted or changed
 * (ON DELETE / ON UPDATE), as PostgreSQL 15: NO ACTION (the default) and RESTRICT refuse the
 * change with 23503 (NO ACTION not when the statement leaves the key present), CASCADE deletes the
 * referencing rows or carries the new key into them, SET NULL and SET DEFAULT set the referencing
 * columns. {@code code} is pg_constraint's confdeltype / confupdtype letter.
 */
public enum ReferentialAction {
    NO_ACTION("NO ACTION", 'a'),
    RESTRICT("RESTRICT", 'r'),
    CASCADE("CASCADE", 'c'),
    SET_NULL("SET NULL", 'n'),
    SET_DEFAULT("SET DEFAULT", 'd');

    private final String text;
    private final char code;

    ReferentialAction(String text, char code) {
        this.text = text;
        this.code = code;
    }

    /** The action as SQL writes it (information_schema's update_rule / delete_rule). */
    public String text() {
        return text;
    }

    public char code() {
        return code;
    }

    /** Whether the action changes the referencing rows (rather than refusing the change). */
    public boolean changesReferencingRows() {
        return this == CASCADE || this == SET_NULL || this == SET_DEFAULT;
    }
}
