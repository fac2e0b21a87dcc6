package io.openrs.repserver.admin.rcl;

import java.util.Objects;
import java.util.Optional;

/**
 * One column of {@code create replication definition}: {@code col [as rcol] datatype [map to
 * published_datatype]}, as in Replication Server.
 *
 * @param name primary column name
 * @param type the datatype as written, normalised to lower-case words separated by one space and a
 *     parenthesised argument list without spaces: {@code varchar(40)}, {@code numeric(12,2)},
 *     {@code double precision}, {@code timestamp(3) with time zone}; a {@code "quoted"} type is
 *     kept as written
 * @param replicateName the replicate column name ({@code as rcol}) when it differs
 * @param publishedType the published datatype ({@code map to type}), same normalisation as {@code
 *     type}
 */
public record ColumnDef(
    String name, String type, Optional<String> replicateName, Optional<String> publishedType) {

  public ColumnDef {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(type, "type");
    Objects.requireNonNull(replicateName, "replicateName");
    Objects.requireNonNull(publishedType, "publishedType");
  }

  /** A column with the same name at the replicate and no published type. */
  public static ColumnDef of(String name, String type) {
    return new ColumnDef(name, type, Optional.empty(), Optional.empty());
  }

  /** {@code name [as rcol] type [map to ptype]}. */
  @Override
  public String toString() {
    return RclText.ident(name)
        + replicateName.map(r -> " as " + RclText.ident(r)).orElse("")
        + " "
        + RclText.type(type)
        + publishedType.map(p -> " map to " + RclText.type(p)).orElse("");
  }
}
