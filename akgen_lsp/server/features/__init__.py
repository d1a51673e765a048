"""Editor features over the core: each module takes text, a position in code points, settings and the catalog,
and returns values; only the protocol layer knows about documents, codecs and the transport."""
