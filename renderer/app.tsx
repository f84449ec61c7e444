// Placeholder shell until the shell issue lands: it says what the console is and what works now.
export function App() {
  return (
    <div className="app" data-app-state="loaded">
      <header className="app-header">
        <h1>Agent Console</h1>
        <span className="badge">Embedded mock</span>
      </header>
      <main className="placeholder">
        <h2>The console is being built</h2>
        <p>
          The embedded mock of the Agent Messaging Service is running behind this page. The chat playground,
          browsers, usage charts and health monitor arrive in the next releases.
        </p>
        <p>
          Meanwhile, run the mock alone with <code>npm run mock</code> and call it with curl, as the README
          shows.
        </p>
      </main>
    </div>
  );
}
