package audit

// The SARIF 2.1.0 objects that the audit writes: the subset GitHub code
// scanning reads, and nothing the schema would reject.

type sarifLog struct {
	Schema  string     `json:"$schema"`
	Version string     `json:"version"`
	Runs    []sarifRun `json:"runs"`
}

type sarifRun struct {
	Tool            sarifTool      `json:"tool"`
	Results         []sarifResult  `json:"results"`
	ColumnKind      string         `json:"columnKind"`
	RedactionTokens []string       `json:"redactionTokens,omitempty"`
	Properties      map[string]any `json:"properties,omitempty"`
}

type sarifTool struct {
	Driver sarifDriver `json:"driver"`
}

type sarifDriver struct {
	Name            string         `json:"name"`
	InformationURI  string         `json:"informationUri"`
	Version         string         `json:"version,omitempty"`
	SemanticVersion string         `json:"semanticVersion,omitempty"`
	Rules           []sarifRule    `json:"rules"`
	Properties      map[string]any `json:"properties,omitempty"`
}

type sarifRule struct {
	ID                   string         `json:"id"`
	Name                 string         `json:"name,omitempty"`
	ShortDescription     sarifText      `json:"shortDescription"`
	FullDescription      sarifText      `json:"fullDescription"`
	Help                 sarifHelp      `json:"help"`
	DefaultConfiguration sarifConfig    `json:"defaultConfiguration"`
	Properties           sarifRuleProps `json:"properties"`
}

type sarifText struct {
	Text string `json:"text"`
}

type sarifHelp struct {
	Text     string `json:"text"`
	Markdown string `json:"markdown,omitempty"`
}

type sarifConfig struct {
	Level string `json:"level"`
}

type sarifRuleProps struct {
	SecuritySeverity string   `json:"security-severity"`
	Precision        string   `json:"precision,omitempty"`
	Tags             []string `json:"tags"`
}

type sarifResult struct {
	RuleID              string             `json:"ruleId"`
	RuleIndex           int                `json:"ruleIndex"`
	Level               string             `json:"level"`
	Message             sarifText          `json:"message"`
	Locations           []sarifLocation    `json:"locations"`
	PartialFingerprints map[string]string  `json:"partialFingerprints,omitempty"`
	BaselineState       string             `json:"baselineState,omitempty"`
	Suppressions        []sarifSuppression `json:"suppressions,omitempty"`
	Properties          sarifResultProps   `json:"properties"`
}

type sarifLocation struct {
	PhysicalLocation sarifPhysical `json:"physicalLocation"`
}

type sarifPhysical struct {
	ArtifactLocation sarifArtifact `json:"artifactLocation"`
	Region           *sarifRegion  `json:"region,omitempty"`
}

type sarifArtifact struct {
	URI       string `json:"uri"`
	URIBaseID string `json:"uriBaseId,omitempty"`
}

type sarifRegion struct {
	StartLine   int `json:"startLine"`
	StartColumn int `json:"startColumn,omitempty"`
}

type sarifSuppression struct {
	Kind          string            `json:"kind"`
	Status        string            `json:"status"`
	Justification string            `json:"justification"`
	Properties    map[string]string `json:"properties,omitempty"`
}

type sarifResultProps struct {
	New      bool   `json:"new"`
	Skill    string `json:"skill"`
	Severity string `json:"severity"`
	Snippet  string `json:"snippet,omitempty"`
	Decoded  string `json:"decoded,omitempty"`
	Count    int    `json:"count,omitempty"`
}
