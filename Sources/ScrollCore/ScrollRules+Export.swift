@_exported import ScrollRules
