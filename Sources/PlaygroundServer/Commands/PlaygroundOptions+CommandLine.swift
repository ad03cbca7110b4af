extension PlaygroundOptions {
    /// `helloTimeoutMilliseconds` in seconds, as `--hello-timeout` takes it.
    var helloTimeoutSeconds: Double {
        get { Double(helloTimeoutMilliseconds) / 1000 }
        set { helloTimeoutMilliseconds = Int((newValue * 1000).rounded()) }
    }

    /// `resumeGraceMilliseconds` in seconds, as `--resume-grace` takes it.
    var resumeGraceSeconds: Double {
        get { Double(resumeGraceMilliseconds) / 1000 }
        set { resumeGraceMilliseconds = Int((newValue * 1000).rounded()) }
    }
}
