"""Sentence embedders: a protocol, the bundled USE encoder and the optional fastembed one."""
