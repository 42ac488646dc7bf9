"""pc-e2e's driver of PowerContext's own MemoryCode task generator (pipelines/memorycode-tasks)."""
