<#-- The list of what the plugin jar bundles, written by license-maven-plugin (add-third-party) at every build. -->
Third-party components in the flinks3 plugin jar

The plugin jar bundles the components below (relocated under dev/flinks3/shaded/, except the AWS Common
Runtime's classes and native libraries), each under the licence its own POM names. The build writes this list
from the jar's bundled dependencies and fails on a component whose licence is missing or not one of those
reviewed (Apache-2.0, MIT-0). The Apache-2.0 text is LICENSE; NOTICE reproduces the components' notices and
names code under other licences inside them; MIT-0 asks for no notice.

<#list dependencyMap as e>
<#assign project = e.getKey()/>
<#assign licenses = e.getValue()/>
${project.groupId}:${project.artifactId}:${project.version}  (${licenses?join(", ")})  ${project.name!""}
</#list>
