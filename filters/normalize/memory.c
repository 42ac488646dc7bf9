/* memory: Memory snapshots (memory.h). */
#include "memory.h"
#include "json.h"

/* {name, source_id} of each reference (borrowed), under the key that holds
 * the source's name: "name" in a Memory entry, "source_type" in a revision. */
static jv source_refs(jv refs, const char *name_key)
{
	jv out = jv_array();

	if (jv_get_kind(refs) == JV_KIND_ARRAY)
		jv_array_foreach(refs, i, ref) {
			jv named = JV_OBJECT(jv_string("name"), json_at(ref, name_key),
					     jv_string("source_id"), json_at(ref, "source_id"));
			out = jv_array_append(out, named);
			jv_free(ref);
		}
	return out;
}

/* A Memory entry (legacy, before 1.3.0) as the replay keeps it. */
static jv legacy_entry(jv entry)
{
	jv refs = json_at(entry, "source_refs");
	jv out = JV_OBJECT(
		jv_string("entry_id"), json_at(entry, "citation.entry_id"),
		jv_string("entry_version_id"), json_at(entry, "citation.entry_version_id"),
		jv_string("version"), json_at(entry, "version"),
		jv_string("kind"), json_at(entry, "kind"),
		jv_string("text"), json_at(entry, "text"),
		jv_string("state"), json_at(entry, "state"),
		jv_string("source_refs"), source_refs(refs, "name"));
	jv_free(refs);
	jv_free(entry);
	return out;
}

/* An atomic Memory record (1.3.0+) with its lineage from the revision
 * pc-run-bub read for it. */
static jv atomic_entry(jv entry)
{
	jv revision = json_at(entry, "revision");
	jv sources = json_at(revision, "sources"), artifacts = json_at(revision, "artifacts");
	jv refs = jv_array();

	if (jv_get_kind(artifacts) == JV_KIND_ARRAY)
		jv_array_foreach(artifacts, i, a) {
			jv ref = JV_OBJECT(jv_string("family"), json_at(a, "family"),
					   jv_string("artifact_id"), json_at(a, "artifact_id"),
					   jv_string("revision"), json_at(a, "revision"));
			refs = jv_array_append(refs, ref);
			jv_free(a);
		}
	jv out = JV_OBJECT(
		jv_string("artifact"), json_at(entry, "artifact"),
		jv_string("kind"), json_at(entry, "kind"),
		jv_string("text"), json_at(entry, "text"),
		jv_string("state"), json_at(entry, "state"),
		jv_string("state_version"), json_at(entry, "state_version"),
		jv_string("merged_into_id"), json_at(entry, "merged_into_id"),
		jv_string("sources"), source_refs(sources, "source_type"),
		jv_string("artifacts"), refs);
	jv_free(sources);
	jv_free(artifacts);
	jv_free(revision);
	jv_free(entry);
	return out;
}

jv memory_snapshot(jv listing)
{
	jv entries = json_at(listing, "entries"), out = jv_array();

	if (jv_get_kind(entries) == JV_KIND_ARRAY)
		jv_array_foreach(entries, i, entry) {
			int atomic = jv_get_kind(entry) == JV_KIND_OBJECT &&
				     jv_object_has(jv_copy(entry), jv_string("artifact"));
			out = jv_array_append(out,
					      atomic ? atomic_entry(entry) : legacy_entry(entry));
		}
	jv_free(entries);
	jv_free(listing);
	return JV_OBJECT(jv_string("entries"), out);
}
