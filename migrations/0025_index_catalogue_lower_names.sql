-- Alert intake names an alert's subject by a label value, matched case-insensitively against
-- catalogue keys, names and monitoring-source ids: one look-up per batch, which without these
-- scans the organisation's whole catalogue.
CREATE INDEX catalogue_entities_lower_key_idx ON catalogue_entities (org_id, lower(key));
CREATE INDEX catalogue_entities_lower_name_idx ON catalogue_entities (org_id, lower(name));
CREATE INDEX catalogue_sources_lower_id_idx ON catalogue_sources (org_id, lower(id));
CREATE INDEX catalogue_sources_lower_name_idx ON catalogue_sources (org_id, lower(name));
